// Vite's `?url` suffix: the import is the asset's URL in the build (only the page's own files use it).
declare module '*?url' {
  const url: string;
  export default url;
}
