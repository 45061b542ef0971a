// A game's Server-Sent Events read with fetch, so that the game's token goes
// in the Authorization header (EventSource cannot send headers, and a token in
// the URL would end up in logs). Reconnects after a pause until stopped.

export type OnEvent = (id: number, data: string) => void;

/** Parse complete SSE blocks out of `buffer`; returns what is left over. */
export function parseBlocks(buffer: string, onEvent: OnEvent): string {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let id = 0;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('id:')) id = Number(line.slice(3).trim()) || 0;
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) onEvent(id, data.join('\n'));
  }
  return rest;
}

/**
 * Follow `url` with `token`; call `stop()` to end. Errors only lead to a
 * reconnect; `onStatus(false)` says the stream is down, `onStatus(true)` up again.
 */
export function follow(
  url: string,
  token: string,
  onEvent: OnEvent,
  retryMs = 1000,
  onStatus: (up: boolean) => void = () => undefined,
): () => void {
  const abort = new AbortController();
  const run = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      try {
        const res = await fetch(url, {
          headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
          signal: abort.signal,
          cache: 'no-store',
        });
        if (res.ok && res.body) {
          onStatus(true);
          const reader = res.body.getReader();
          const decoder = new TextDecoder();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer = parseBlocks(buffer + decoder.decode(value, { stream: true }), onEvent);
          }
        } else if (res.status === 401 || res.status === 404) {
          return; // the token or the game is not valid: retrying cannot help
        }
      } catch {
        /* network error or aborted: retry below unless stopped */
      }
      if (abort.signal.aborted) return;
      onStatus(false);
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  };
  void run();
  return () => abort.abort();
}
