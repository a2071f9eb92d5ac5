import { BuildResourcesContext } from '../build-resources'
import { CardRates, EcbRates } from '../components/rates'
import { RatesRenderer } from '../components/sections/rates-slot'
import { PageTemplate } from './page'
import type { TemplateProps } from './types'

const renderers = { ecb: EcbRates, card: CardRates }

/**
 * A page with exchange rates (the ECB's, a card network's): the page as usual, its rate
 * sections drawn with the tables' and the converter's code, which only these pages load. The
 * build's files of rates by day reach the sections from here, for visitors without script.
 */
export function RatesTemplate(props: TemplateProps) {
  return (
    <BuildResourcesContext.Provider value={props.resources}>
      <RatesRenderer.Provider value={renderers}>
        <PageTemplate {...props} />
      </RatesRenderer.Provider>
    </BuildResourcesContext.Provider>
  )
}
