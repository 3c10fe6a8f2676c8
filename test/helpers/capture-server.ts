import { type IncomingHttpHeaders, type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real node:http server on 127.0.0.1 that records every request (method, url, headers, body)
 * and answers with whatever `respond` returns. For tests that check what the CLI sends where.
 */
export interface CapturedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as sent (ciphertext does not survive the utf8 decoding of `body`). */
  bytes: Uint8Array;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CaptureServer {
  url: string;
  requests: CapturedRequest[];
  close(): Promise<void>;
}

export async function startCaptureServer(respond: (request: CapturedRequest) => Answer): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const bytes = Buffer.concat(chunks);
      const captured = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: bytes.toString("utf8"), bytes: new Uint8Array(bytes) };
      requests.push(captured);
      const answer = respond(captured);
      const text = answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Everything a request carried, as one string, to search for a secret in any header, the URL or the body. */
export function everythingSent(request: CapturedRequest): string {
  return [request.method, request.url, JSON.stringify(request.headers), request.body].join("\n");
}
