/** The page's title (its only h1, focused after client navigation) and introduction. */
export function PageHeader({
  title,
  intro,
  children,
}: {
  title: string
  intro?: string
  children?: React.ReactNode
}) {
  return (
    <header className="page-header">
      <h1 tabIndex={-1}>{title}</h1>
      {children}
      {intro && <p className="lead">{intro}</p>}
    </header>
  )
}
