import { type ApiRequest, fetchFile } from '@/lib/api-client';

/** Hands the browser a file to save, as a download link would. */
function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
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

/** Hands the browser a file the page wrote itself (a program, recovery codes) to save. */
export function downloadFile(fileName: string, content: string, type: string): void {
  saveBlob(fileName, new Blob([content], { type }));
}

/** The file name a Content-Disposition gives: its UTF-8 form (RFC 6266) first, else the plain one. */
function attachmentName(disposition: string | null, fallback: string): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed name: the plain one below will do.
    }
  }
  return /filename="([^"]*)"/i.exec(disposition ?? '')?.[1] ?? fallback;
}

/**
 * Downloads a file the API writes (reports, a backup) and hands it to the browser to save under
 * the name the server gives. True once handed over; false once a failure has gone to `onApiFailure`.
 */
export async function downloadApiFile(request: {
  path: string;
  query?: ApiRequest<unknown>['query'];
  fallbackName: string;
}): Promise<boolean> {
  const file = await fetchFile(request);
  if (!file) return false;
  saveBlob(attachmentName(file.disposition, request.fallbackName), file.blob);
  return true;
}
