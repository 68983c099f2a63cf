// Detaches one throwaway ArrayBuffer as a decode worker starts, before it compiles anything.
//
// V8 compiles typed-array code on the promise that no ArrayBuffer of the isolate has ever been detached (its
// "ArrayBufferDetaching" protector), and the first detach breaks that promise for good: every optimised function that
// reads a typed array is thrown away at once ("code dependencies" deoptimisations) and compiled again as it turns hot.
// A worker detaches buffers as a matter of course (a thumbnail's outputs are transferred to the main thread), so it was
// going to happen, but it happened at the worker's first finished thumbnail: after its warm-up had compiled the codec
// (all of which was thrown away), and with many workers often in the middle of a timed pass, which then compiled the
// codec again (`node --trace-protector-invalidation --trace-deopt` on `exrview bench`). Done first, once per isolate,
// the code compiled from then on is the code the worker keeps.

let detached = false;

/** Detaches a throwaway buffer once per thread; true the first time. */
export function detachOnce(): boolean {
  if (detached) return false;
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
  detached = true;
  return buffer.byteLength === 0;
}
