/**
 * Where the exchange-rate sections are drawn. Their code (tables, converter) is not in every
 * page's JavaScript: the rates template provides it here.
 */
import { type ComponentType, createContext, useContext } from 'react'
import type { SectionOf } from '../../../content/schema/sections'
import type { CardRatesData, EcbRatesData } from '../../../shared/rates/types'

export type EcbRatesSection = SectionOf<'ecbRates'> & { data?: EcbRatesData }
export type CardRatesSection = SectionOf<'cardRates'> & { data?: CardRatesData }

export const RatesRenderer = createContext<{
  ecb: ComponentType<{ section: EcbRatesSection }>
  card: ComponentType<{ section: CardRatesSection }>
} | null>(null)

export function RatesSlot({ section }: { section: EcbRatesSection | CardRatesSection }) {
  const renderer = useContext(RatesRenderer)
  if (!renderer) return null
  return section.type === 'ecbRates' ? (
    <renderer.ecb section={section} />
  ) : (
    <renderer.card section={section} />
  )
}
