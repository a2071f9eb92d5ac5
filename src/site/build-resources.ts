/**
 * The files the build has at hand while it renders a page (`BuildResources`). Only the build's
 * render provides them; in the browser the context is empty and components fetch what they
 * need, so what is drawn from them belongs in `<noscript>`, which hydration leaves alone.
 *
 * A template provides the context (from its `resources` prop), not the server entry: the build
 * imports the server bundle under a query string, so the templates' chunks, which import the
 * entry without one, would see a second copy of a context defined there.
 */
import { createContext } from 'react'
import type { BuildResources } from '../shared/types'

export const BuildResourcesContext = createContext<BuildResources | undefined>(undefined)
