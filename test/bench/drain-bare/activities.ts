/** The baseline's one activity: the Discord Execute Webhook call Herald's Discord adapter makes for a text post. */
export interface BareActivities {
  publish(input: { webhookUrl: string; content: string }): Promise<string>;
}

export function createBareActivities(): BareActivities {
  return {
    async publish({ webhookUrl, content }) {
      const res = await fetch(`${webhookUrl}?wait=true`, {
        method: 'POST',
        headers: { 'user-agent': 'herald-bench', accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ content, allowed_mentions: { parse: [] } }),
        signal: AbortSignal.timeout(30_000),
      });
      const body = await res.json() as { id?: unknown };
      if (!res.ok || typeof body.id !== 'string') throw new Error(`discord answered ${res.status}`);
      return body.id;
    },
  };
}
