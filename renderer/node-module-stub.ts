// Stands in for Node's `module` in the browser builds. @echogarden/pffft-wasm's Emscripten loader imports it
// only on its Node path (`if (ENVIRONMENT_IS_NODE) await import('module')`), which never runs in a page.
export function createRequire(): never {
  throw new Error("Node's module.createRequire is not available in the renderer");
}
