import { useState } from 'react'

/** The questions and answers of a page, one open at a time: the site's one React island. */
export default function Faq({
  heading,
  items,
}: {
  heading: string
  items: { question: string; answer: string }[]
}) {
  const [open, setOpen] = useState<number | null>(null)
  return (
    <section className="faq">
      <h2>{heading}</h2>
      {items.map((item, index) => (
        <div key={item.question} className="faq-item">
          <h3>
            <button
              type="button"
              aria-expanded={open === index}
              aria-controls={`answer-${index}`}
              onClick={() => setOpen(open === index ? null : index)}
            >
              {item.question}
            </button>
          </h3>
          {/* In the page's HTML too, as the project's answers are: hidden until opened. */}
          <p id={`answer-${index}`} hidden={open !== index}>
            {item.answer}
          </p>
        </div>
      ))}
    </section>
  )
}
