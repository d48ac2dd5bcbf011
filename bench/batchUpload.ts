// Identity batch upload (issue 11): a 10,000-row CSV (BENCH_BATCH_ROWS to change), each row an identity with a
// card and a user-defined field, uploaded through the real server: the dry-run preview, then the streamed import
// with its progress events → bench/results/batchUpload.json. Target: preview + import < 60 s (Gallagher's
// published figure for a comparable batch is about an hour).
import { performance } from 'node:perf_hooks';
import { API } from '../contract';
import { benchDb, benchServer, writeResult } from './lib';

export const BATCH_TARGET_S = 60;

export async function batchUploadBench(rows = Number(process.env.BENCH_BATCH_ROWS ?? 10_000)) {
  const b = await benchDb();
  const server = await benchServer(b.db);
  try {
    const token = await server.login('harbour');
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(server.base + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await r.json()) as any;
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };
    const division = (await call('GET', `${API.identities}?size=1`)).items[0].divisionId;
    await call('POST', API.userFields, { key: 'costCentre', label: 'Cost centre', kind: 'text', required: false, maxLength: 20 });
    const tpl = await call('POST', API.batchTemplates, {
      name: 'Bench',
      divisionId: division,
      credentialType: 'card',
      columns: [
        { header: 'Employee', target: 'employeeNo' },
        { header: 'First name', target: 'firstName' },
        { header: 'Last name', target: 'lastName' },
        { header: 'Email', target: 'email' },
        { header: 'Card', target: 'credentialNumber' },
        { header: 'Cost centre', target: 'udf', udfKey: 'costCentre' },
      ],
    });
    let csv = 'Employee,First name,Last name,Email,Card,Cost centre\r\n';
    for (let i = 1; i <= rows; i++) csv += `BENCH-${i},First${i},Last${i},p${i}@bench.test,BC-${100000 + i},CC-${i % 40}\r\n`;
    console.log(`batchUpload: ${rows.toLocaleString()} rows, ${(csv.length / 1e6).toFixed(1)} MB`);

    const t0 = performance.now();
    const pr = await fetch(`${server.base}${API.batchUpload}?templateId=${tpl.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    });
    const preview = (await pr.json()) as any;
    if (pr.status !== 201) throw new Error(`preview: ${pr.status} ${JSON.stringify(preview).slice(0, 300)}`);
    const previewS = (performance.now() - t0) / 1000;

    const t1 = performance.now();
    const res = await fetch(`${server.base}${API.batchUpload}/${preview.id}/import`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`import: ${res.status} ${await res.text()}`);
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    let progressEvents = 0;
    let firstProgressMs = 0;
    let end: any = null;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const ev = /event: (.*)/.exec(block)?.[1];
        const data = JSON.parse(/data: (.*)/.exec(block)?.[1] ?? 'null');
        if (ev === 'progress') {
          progressEvents++;
          if (!firstProgressMs) firstProgressMs = performance.now() - t1;
          if (progressEvents % 8 === 0) console.log(`  ${data.done}/${data.total}`);
        }
        if (ev === 'end') end = data;
      }
    }
    const importS = (performance.now() - t1) / 1000;
    const totalS = previewS + importS;
    const created = Number((await b.db.query<{ n: string }>(`select count(*)::text n from identities where employee_no like 'BENCH-%'`)).rows[0].n);
    const cards = Number((await b.db.query<{ n: string }>(`select count(*)::text n from credentials where number like 'BC-%'`)).rows[0].n);
    return writeResult('batchUpload', {
      database: b.db.kind,
      rows,
      previewSeconds: Number(previewS.toFixed(2)),
      importSeconds: Number(importS.toFixed(2)),
      totalSeconds: Number(totalS.toFixed(2)),
      rowsPerSecond: Math.round(rows / totalS),
      progressEvents,
      firstProgressMs: Math.round(firstProgressMs),
      result: end,
      identitiesCreated: created,
      credentialsCreated: cards,
      target: { metric: `${rows.toLocaleString()} identities with cards: preview + import seconds`, atMost: BATCH_TARGET_S, scaledFrom: 10_000 },
      met: totalS < BATCH_TARGET_S && created === rows && cards === rows,
    });
  } finally {
    await server.close();
    await b.dispose();
  }
}
