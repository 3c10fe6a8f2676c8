// Vite's `?raw` suffix: the file's text as a string (capacity.test.ts reads docs/scale.md this way,
// since a test inside workerd has no host filesystem).
declare module "*.md?raw" {
  const text: string;
  export default text;
}
