/** Hands the browser a file to save, as a download link would. */
export function saveFile(fileName: string, content: Blob): void {
  const url = URL.createObjectURL(content);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the address can go afterwards.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
