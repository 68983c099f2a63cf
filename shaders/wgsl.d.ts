// WGSL sources imported as text: `?raw` in Vite, the `.wgsl` text loader in esbuild.
declare module '*.wgsl?raw' {
  const source: string;
  export default source;
}
declare module '*.wgsl' {
  const source: string;
  export default source;
}
