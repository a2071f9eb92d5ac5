/**
 * The words of the exchange-rate pages in one language (`exchange-rates/texts.yaml`). Braces
 * are placeholders the page fills in: {date}, {network}, {currency}, {amount}, {euros}, …; the
 * content schema says which each text takes.
 */
export interface RatesTexts {
  source: string
  sourceLink: string
  cardSource: string
  ratesOf: string
  snapshot: string
  informationOnly: string
  ecbCaption: string
  currency: string
  perEuro: string
  change: string
  trend: string
  trendLabel: string
  sorted: string
  ascending: string
  descending: string
  cardCaption: string
  cardRate: string
  ecbRate: string
  markup: string
  date: string
  ecbOf: string
  converter: string
  converterIntro: string
  amount: string
  amountHint: string
  amountError: string
  result: string
  resultEcb: string
  resultMarkup: string
  history: string
  historyCaption: string
  historyShow: string
  historyLoading: string
  historyError: string
  historyOutdated: string
  retry: string
  reload: string
}
