/**
 * The words of the exchange-rate pages (`exchange-rates/texts.yaml`): column names, the
 * converter's labels and the sentences around the figures, per language. Placeholders in
 * braces are filled in by the page: {date}, {network}, {currency}, {amount}, {euros}, …
 */
import { z } from 'zod'
import type { RatesTexts } from '../../shared/rates/texts'
import { slug, text } from './fields'
import type { Same } from './same'

const languageTexts = z.strictObject({
  source: text('the sentence naming the ECB as the source ("Source: …")', 200),
  sourceLink: text('the label of the link to the ECB page', 120),
  cardSource: text(
    'the sentence naming the card network as the source of its rates ({network})',
    300,
  ),
  ratesOf: text('the sentence with the date the rates are for ({date})', 200),
  snapshot: text('the note that the rates come from the stored copy ({date}: its latest day)', 300),
  informationOnly: text('the ECB\'s "for information purposes only" note', 300),
  ecbCaption: text('the caption of the ECB table ({date})', 200),
  currency: text('the column "Currency"', 40),
  perEuro: text('the column of the rate per 1 euro', 60),
  change: text('the column of the change since the first day ({date})', 80),
  trend: text('the column of the small chart', 40),
  trendLabel: text(
    'the description of a small chart ({currency}, {first}, {firstDate}, {last}, {lastDate}, {low}, {high})',
    300,
  ),
  sorted: text('the announcement after sorting ({column}, {direction})', 120),
  ascending: text('"ascending"', 40),
  descending: text('"descending"', 40),
  cardCaption: text('the caption of the card-rate table ({network}, {date})', 200),
  cardRate: text("the column of the card network's rate ({network})", 60),
  ecbRate: text('the column of the ECB reference rate', 60),
  markup: text('the column of the mark-up', 60),
  date: text('the column of the date', 40),
  ecbOf: text('the note that the ECB rate is of an earlier day ({date})', 120),
  converter: text("the converter's heading", 80),
  converterIntro: text("the converter's introduction ({network})", 400),
  amount: text('the label of the amount', 60),
  amountHint: text('the hint under the amount ({example})', 120),
  amountError: text('the error for an amount that is no number ({example})', 160),
  result: text('the converted amount ({amount}, {euros}, {network}, {rate}, {date})', 240),
  resultEcb: text('the amount at the ECB rate ({euros}, {rate}, {date})', 240),
  resultMarkup: text('the mark-up of the conversion ({markup})', 160),
  history: text('the heading of the history', 80),
  historyCaption: text("the caption of a currency's history ({currency}, {network})", 200),
  historyShow: text('the button that shows the history of the chosen currency ({currency})', 120),
  historyLoading: text("the note while a currency's rates by day load ({currency})", 160),
  historyError: text(
    "the message when a currency's rates by day could not be loaded, before the retry button ({currency})",
    240,
  ),
  historyOutdated: text(
    'the message when the rates were updated since the page was opened, before the reload button',
    240,
  ),
  retry: text('the button that tries loading again', 40),
  reload: text('the button that reloads the page', 40),
})

/** The exchange-rate sections read these words as `RatesTexts`. */
true satisfies Same<z.output<typeof languageTexts>, RatesTexts>

export const ratesTexts = z.strictObject({
  /** The card networks with a rate file: `{ file: mastercard, name: Mastercard }`. */
  networks: z.array(
    z.strictObject({
      file: slug("the name of the network's rate file in exchange-rates/ (mastercard)"),
      name: text("the card network's name", 60),
    }),
  ),
  en: languageTexts,
  de: languageTexts,
})
