/**
 * The interface of the page's language (its strings and its language code), for components
 * deep in a template that show a word of the interface (the FAQ's "copy link"), without
 * handing them down through every level. The code marks those words where the page's text is
 * in another language (a page for customers in Spain).
 */
import { createContext } from 'react'
import type { LayoutData } from '../shared/types'

export const InterfaceContext = createContext<LayoutData | undefined>(undefined)
