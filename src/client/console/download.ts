/** Saves a response body as a file: the export stream arrives with the key, so no plain link can fetch it. */
export async function saveAs(res: Response, filename: string): Promise<number> {
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return blob.size;
}
