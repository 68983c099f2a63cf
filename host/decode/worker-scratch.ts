// A worker's scratch memory for rows of level 0 it decodes before reducing or measuring them: one buffer per plane,
// kept across tasks (it grows, never shrinks) and shared by every task kind, which a worker runs one at a time.

const scratch: ArrayBuffer[] = [];

/** Scratch for plane `index` of at least `byteLength` bytes. */
export function scratchFor(index: number, byteLength: number): ArrayBuffer {
  const have = scratch[index];
  if (have && have.byteLength >= byteLength) return have;
  return (scratch[index] = new ArrayBuffer(byteLength));
}
