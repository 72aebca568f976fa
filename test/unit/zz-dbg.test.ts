import { connect } from 'node:net';
import { anApiServer } from '../support/api-app';
it('dbg', async () => {
  const api = await anApiServer();
  for (const path of ['/api/herald/nope', '/api/herald/nope?x=%ED%A0%80', '/api/herald/me']) {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(api.port, '127.0.0.1', () => socket.end(`HEAD ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Apikey ${api.secret}\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"a":1}`));
      let text = '';
      socket.on('data', (b) => { text += b.toString(); });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    console.log(path, JSON.stringify(raw));
  }
  await api.close();
});
