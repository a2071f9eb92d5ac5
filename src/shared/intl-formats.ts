/**
 * Intl formatters, made once per locale and options: creating one costs far more than
 * formatting with it (a rate page formats hundreds of numbers and dates), on the server that
 * renders every page and in the browser alike.
 */
function madeOnce<Options, Format>(
  create: (locale: string, options: Options) => Format,
): (locale: string, options: Options) => Format {
  const made = new Map<string, Format>()
  return (locale, options) => {
    const key = `${locale}${JSON.stringify(options)}`
    let format = made.get(key)
    if (!format) {
      format = create(locale, options)
      made.set(key, format)
    }
    return format
  }
}

export const numberFormat = madeOnce(
  (locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options),
)

export const dateFormat = madeOnce(
  (locale, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options),
)
