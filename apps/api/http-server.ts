import type { ErrorCode } from '../../core/domain/error-codes';
import { createServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { SECURITY_HEADERS } from '../shared/security-headers';

/** What Node refuses before Koa sees a request, answered in the API's JSON error shape. */
function clientErrorAnswer(code: string | undefined): { status: number; reason: string; errorCode: ErrorCode; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431, reason: 'Request Header Fields Too Large', errorCode: 'headers_too_large',
        message: `The request's headers are larger than ${Math.round(maxHeaderSize / 1024)} KB in all: send fewer or shorter headers.`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', errorCode: 'request_timeout', message: 'The request was not received in time: send it again.' };
    default:
      return {
        status: 400, reason: 'Bad Request', errorCode: 'malformed_request',
        message: `The request is not valid HTTP/1.1 (${code ?? 'unreadable'}): check the request line, the headers and the body's framing.`,
      };
  }
}

/** The Node HTTP server around the Koa app, as the daemon and the in-process tests run it. */
export function createHttpServer(
  app: Koa<any>,
  opts: { requestTimeoutMs: number; wrap?: (callback: (req: IncomingMessage, res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse) => void },
): Server {
  const callback = app.callback();
  const server = createServer(opts.wrap ? opts.wrap(callback) : callback);
  server.requestTimeout = opts.requestTimeoutMs;
  // Node's own answers to requests it cannot parse (431, 400, 408) are bodiless; ours are JSON.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // As Node itself does: never write into a response that has started (it would corrupt it).
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = clientErrorAnswer(err.code);
    const body = JSON.stringify({ success: false, message: answer.message, error_code: answer.errorCode });
    // The answer to a HEAD request has no body (the client would read it as the next response).
    const head = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    const security = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.end(`HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json; charset=utf-8\r\n${security}`
      + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`);
  });
  return server;
}
