/** Latin letters without their marks (ó → o, and ł, which Unicode does not decompose, → l). */
export function withoutMarks(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replaceAll('ł', 'l')
    .replaceAll('Ł', 'L');
}

/**
 * A Content-Disposition naming a downloaded file: its name in UTF-8 (RFC 6266, RFC 5987) and a
 * plain ASCII one for clients that read only that.
 */
export function attachment(filename: string): string {
  const ascii = withoutMarks(filename).replace(/[^\x20-\x7e]|["\\/]/g, '_');
  const encoded = encodeURIComponent(filename.replace(/[/\\]/g, '_')).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
