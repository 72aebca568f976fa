// Drives the official npm client of the commercial API (npm `upload-post`, the version in
// package.json) against a Herald API, as an integrator's program would: a real Node process
// importing the published package, nothing mocked. Reads `{baseUrl, apiKey, calls: [{method,
// args}]}` as JSON on stdin and prints, as JSON, one `{method, ok, value | error}` per call, in
// order, with `status`. A call the client throws on (an HTTP error, its own refusal) is `ok: false` with the
// client's message, which is what the integrator sees, and the HTTP status the client saw (read
// off the axios instance it calls, without changing what it does).
import axios from 'axios';
import { UploadPost } from 'upload-post';

let lastStatus = null;
axios.interceptors.response.use((res) => { lastStatus = res.status; return res; }, (err) => { lastStatus = err?.response?.status ?? null; throw err; });

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { baseUrl, apiKey, calls } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const client = new UploadPost(apiKey);
client.baseUrl = baseUrl;

const answers = [];
for (const { method, args } of calls) {
  if (typeof client[method] !== 'function') {
    answers.push({ method, ok: false, error: `the client has no method ${method}` });
    continue;
  }
  lastStatus = null;
  try {
    const value = await client[method](...args);
    answers.push({ method, ok: true, status: lastStatus, value });
  } catch (err) {
    answers.push({ method, ok: false, status: lastStatus, error: String(err?.message ?? err) });
  }
}
process.stdout.write(JSON.stringify(answers));
