// The document's actions: copy a string, save bytes under a file name. Browser APIs only.

/**
 * Puts `text` on the clipboard; answers what to tell the reader. Without clipboard permission (or
 * a secure context) it selects the element `reveal` shows with the same text, so one keystroke
 * copies it.
 */
export async function copyToClipboard(text: string, reveal: () => HTMLElement, what: string): Promise<string> {
  try {
    await navigator.clipboard.writeText(text);
    return `Copied ${what}.`;
  } catch {
    const fallback = reveal();
    const range = document.createRange();
    range.selectNodeContents(fallback);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
    return `Selected ${what}: press Ctrl+C (⌘C on a Mac) to copy.`;
  }
}

/** Saves `bytes` as a file called `fileName` (already checked to be a bare name by the envelope code). */
export function saveBytes(bytes: Uint8Array<ArrayBuffer>, fileName: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  // The download has started from the blob by the next task; the URL is not needed after that.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
