const formats = new Map<string, Intl.NumberFormat>();

/**
 * A number format of a language, made once for each language and set of options: making one
 * costs the browser a lookup of its locale data, and rows and live values format on every render.
 */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}
