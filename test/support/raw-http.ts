import { connect } from 'node:net';

/** Writes `request` as it is to 127.0.0.1:port and answers everything the server sent back until it closed. */
export function rawExchange(port: number, request: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.on('data', (b) => { text += b.toString(); });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}
