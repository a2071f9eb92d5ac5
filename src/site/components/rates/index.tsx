/**
 * The exchange-rate sections: the ECB's reference rates as a sortable table with each
 * currency's course as a small chart (`ecb-rates.tsx`), and a card network's rates with the
 * mark-up over the ECB rate, a converter and each currency's rates by day, loaded when asked
 * for (`card-rates.tsx`).
 */
export { CardRates } from './card-rates'
export { EcbRates } from './ecb-rates'
