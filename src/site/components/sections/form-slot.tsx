/**
 * Where a `form` section is drawn. The forms' code is not in every page's JavaScript: the form
 * template provides it here, and the content store allows forms on such pages only.
 */
import { type ComponentType, createContext, useContext } from 'react'
import type { SectionOf } from '../../../content/schema/sections'

export const FormRenderer = createContext<ComponentType<{ section: SectionOf<'form'> }> | null>(
  null,
)

export function FormSlot({ section }: { section: SectionOf<'form'> }) {
  const Render = useContext(FormRenderer)
  return Render ? <Render section={section} /> : null
}
