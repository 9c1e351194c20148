/** Hands text to the browser as a file download under `fileName`, without leaving the page. */
export function downloadTextFile(fileName: string, text: string, type = 'application/x-pem-file') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Once the click has been handled the download has its copy; the object URL would otherwise keep
  // the secret in memory for the page's lifetime.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
