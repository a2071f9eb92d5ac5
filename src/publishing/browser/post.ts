/** What the service's page scripts share: a JSON post that throws the service's refusal. */

/** Posts `body` as JSON; the answer, or an error carrying the refusal's sentence. */
export async function post<Answer>(url: string, body: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answer = (await response.json().catch(() => ({}))) as { error?: string }
  if (!response.ok) throw new Error(answer.error || response.statusText)
  return answer as Answer
}

/** The page's status line (`#status`), where answers and refusals are shown. */
export function statusLine(): HTMLElement {
  const status = document.getElementById('status')
  if (!status) throw new Error('the page has no #status')
  return status
}
