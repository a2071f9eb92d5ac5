/**
 * The interface strings of the page's language, for components deep in a template that show a
 * word of the interface (the FAQ's "copy link"), without handing them down through every level.
 */
import { createContext } from 'react'
import type { UiStrings } from '../shared/types'

export const StringsContext = createContext<UiStrings | undefined>(undefined)
