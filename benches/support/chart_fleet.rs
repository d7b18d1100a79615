//! The charts fleet: the benchmark's third fleet, written as repositories that commit their
//! rendered Helm charts are (the "rendered manifests" pattern), and tuned for by nobody. Every
//! object carries the labels and annotations Helm and the charts stamp on it, unquoted as
//! `helm template` writes them: `app.kubernetes.io/version: 1.24.3`, `helm.sh/chart:
//! orders-1.24.3`, a `checksum/config` digest that is digit-first one time in ten, a restart
//! timestamp, an external IP; images pinned by digest; StatefulSets with claim templates,
//! CronJobs whose schedules are plain words with spaces, PodDisruptionBudgets, NetworkPolicies
//! with CIDRs, Roles and RoleBindings, and ServiceMonitors checked against their CRD, which the
//! fleet ships. Placement is by Helm's labels and a tier label: Duplicated, Divided by the
//! clusters' available replicas, and first-fitting cluster affinity groups; overrides are
//! plaintext patches, args, the image registry and a field of a ConfigMap's embedded YAML.
//!
//! Generated deterministically, so every run builds the same fleet.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::fleet_generator::{Rng, fresh_fleet_dir};

const REGIONS: &[&str] = &["eu-west", "eu-north", "us-east", "us-central", "ap-east"];
const PRODUCTS: &[&str] = &[
    "orders",
    "billing",
    "accounts",
    "inventory",
    "shipping",
    "reviews",
    "pricing",
    "fraud",
];

/// Writes a charts fleet of about `templates` templates (whole chart releases, so a few more)
/// and `clusters` clusters under `dir`; returns the fleet directory (the inventory is
/// `dir/clusters.yaml`). `revision` releases a new chart version of a few releases, for `diff`
/// between nearby revisions.
pub fn generate_charts(dir: &Path, templates: usize, clusters: usize, revision: u64) -> PathBuf {
    let fleet = fresh_fleet_dir(dir);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    std::fs::write(dir.join("clusters.yaml"), inventory(clusters, &mut rng)).unwrap();
    std::fs::write(fleet.join("placement.yaml"), propagation_policies()).unwrap();
    std::fs::write(fleet.join("servicemonitor-crd.yaml"), SERVICE_MONITOR_CRD).unwrap();
    std::fs::write(fleet.join("stamp.yaml"), cluster_override()).unwrap();
    // About seven templates a release, thirty releases a namespace at the largest sizes.
    let releases = templates.div_ceil(7);
    let namespaces = releases.div_ceil(30).max(PRODUCTS.len().min(releases));
    let mut written = 0;
    for ns in 0..namespaces {
        let product = PRODUCTS[ns % PRODUCTS.len()];
        let namespace = format!("{product}-{}", ns / PRODUCTS.len());
        let namespace_dir = fleet.join("rendered").join(&namespace);
        std::fs::create_dir_all(&namespace_dir).unwrap();
        let text = format!(
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {namespace}\n  labels:\n    kubernetes.io/metadata.name: {namespace}\n    product: {product}\n    pod-security.kubernetes.io/enforce: restricted\n---\n{}",
            namespace_override(&namespace, ns)
        );
        std::fs::write(namespace_dir.join("00-namespace.yaml"), text).unwrap();
        let here = (releases - written).div_ceil(namespaces - ns);
        for local in 0..here {
            // Every namespace's first release is a service, whose objects its policies select.
            let chart = ["service", "stateful", "service", "batch"][local % 4];
            let release = format!("{product}-{chart}-{written:05}");
            let text = match chart {
                "service" => service_release(&release, &namespace, written, revision, &mut rng),
                "stateful" => stateful_release(&release, &namespace, written, revision, &mut rng),
                _ => batch_release(&release, &namespace, written, revision, &mut rng),
            };
            // As `helm template --output-dir` leaves them: one file a release.
            std::fs::write(namespace_dir.join(format!("{release}.yaml")), text).unwrap();
            written += 1;
        }
    }
    fleet
}

fn inventory(clusters: usize, rng: &mut Rng) -> String {
    let mut text = String::new();
    for index in 0..clusters {
        let region = REGIONS[index % REGIONS.len()];
        let environment = ["prod", "prod", "staging", "prod", "dev"][index / 5 % 5];
        let name = format!("{region}-{environment}-{index:03}");
        writeln!(
            text,
            "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: {name}\n  labels:\n    topology.kubernetes.io/region: {region}\n    environment: {environment}\n    storage: {}\n    tier: \"{}\"\nspec:\n  syncMode: Push\n  provider: {}\n  region: {region}\nstatus:\n  kubernetesVersion: v1.{}.{}\n  resourceSummary:\n    allocatable: {{cpu: \"64\", memory: 256Gi, pods: \"880\"}}\n    allocated: {{cpu: \"{}\", memory: {}Gi, pods: \"{}\"}}",
            if index.is_multiple_of(3) { "hdd" } else { "ssd" },
            1 + index % 3,
            ["aws", "gcp", "azure", "onprem"][index % 4],
            30 + index % 4,
            rng.below(6),
            4 + rng.below(50),
            16 + rng.below(200),
            rng.below(700),
        )
        .unwrap();
    }
    text
}

/// What the platform team's ClusterPropagationPolicies say: everything Helm made goes
/// everywhere, but workloads by tier.
fn propagation_policies() -> String {
    let mut text = String::new();
    let mut policy = |name: &str, priority: u32, selectors: &str, placement: &str| {
        writeln!(text, "---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n  name: {name}\nspec:\n  priority: {priority}\n  resourceSelectors:\n{selectors}\n  placement:\n{placement}").unwrap();
    };
    let everywhere = "    clusterAffinity:\n      labelSelector:\n        matchExpressions:\n        - {key: environment, operator: In, values: [prod, staging, dev]}";
    let by_helm = |kinds: &[(&str, &str)]| {
        kinds
            .iter()
            .map(|(api_version, kind)| format!("  - apiVersion: {api_version}\n    kind: {kind}\n    labelSelector:\n      matchLabels:\n        app.kubernetes.io/managed-by: Helm"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    policy(
        "cluster-scoped",
        0,
        "  - apiVersion: v1\n    kind: Namespace\n  - apiVersion: apiextensions.k8s.io/v1\n    kind: CustomResourceDefinition\n    name: servicemonitors.monitoring.coreos.com",
        everywhere,
    );
    policy(
        "chart-objects",
        0,
        &by_helm(&[
            ("v1", "ServiceAccount"),
            ("v1", "ConfigMap"),
            ("v1", "Service"),
            ("policy/v1", "PodDisruptionBudget"),
            ("networking.k8s.io/v1", "NetworkPolicy"),
            ("rbac.authorization.k8s.io/v1", "Role"),
            ("rbac.authorization.k8s.io/v1", "RoleBinding"),
            ("monitoring.coreos.com/v1", "ServiceMonitor"),
            ("apps/v1", "Deployment"),
        ]),
        everywhere,
    );
    policy(
        "frontend-divided",
        2,
        "  - apiVersion: apps/v1\n    kind: Deployment\n    labelSelector:\n      matchLabels: {fleet.example.com/tier: frontend}",
        "    clusterAffinity:\n      labelSelector:\n        matchLabels: {environment: prod}\n    replicaScheduling:\n      replicaSchedulingType: Divided\n      replicaDivisionPreference: Weighted\n      weightPreference:\n        dynamicWeight: AvailableReplicas",
    );
    policy(
        "databases",
        1,
        "  - apiVersion: apps/v1\n    kind: StatefulSet",
        "    clusterAffinities:\n    - affinityName: fast-disks\n      labelSelector:\n        matchLabels: {storage: ssd}\n    - affinityName: any-disks\n      labelSelector:\n        matchExpressions:\n        - {key: storage, operator: Exists}",
    );
    policy(
        "batch",
        1,
        "  - apiVersion: batch/v1\n    kind: CronJob",
        "    clusterAffinity:\n      labelSelector:\n        matchExpressions:\n        - {key: environment, operator: In, values: [prod, staging]}\n        - {key: tier, operator: NotIn, values: [\"3\"]}\n    spreadConstraints:\n    - spreadByField: region\n      maxGroups: 2\n      minGroups: 1\n    - spreadByField: cluster\n      maxGroups: 4\n      minGroups: 1",
    );
    text
}

/// Every object is stamped with the cluster's region, as a platform team's admission would.
fn cluster_override() -> String {
    let mut text = String::from(
        "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata:\n  name: region-stamp\nspec:\n  overrideRules:\n",
    );
    for region in REGIONS {
        writeln!(text, "  - targetCluster:\n      labelSelector:\n        matchLabels: {{topology.kubernetes.io/region: {region}}}\n    overriders:\n      annotationsOverrider:\n      - operator: add\n        value: {{fleet.example.com/region: {region}}}").unwrap();
    }
    text
}

/// A namespace's OverridePolicy: staging runs one replica with debug logging, one region pulls
/// from its mirror, every workload learns its region, and the services' embedded configuration
/// points at the region's database.
fn namespace_override(namespace: &str, ns: usize) -> String {
    let region = REGIONS[ns % REGIONS.len()];
    format!(
        "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata:\n  name: {namespace}-workloads\n  namespace: {namespace}\nspec:\n  resourceSelectors:\n  - apiVersion: apps/v1\n    kind: Deployment\n  overrideRules:\n  - targetCluster:\n      labelSelector:\n        matchLabels: {{environment: staging}}\n    overriders:\n      plaintext:\n      - path: /spec/replicas\n        operator: replace\n        value: 1\n  - targetCluster:\n      labelSelector:\n        matchLabels: {{topology.kubernetes.io/region: {region}}}\n    overriders:\n      imageOverrider:\n      - component: Registry\n        operator: replace\n        value: {region}.mirror.example.net\n      argsOverrider:\n      - containerName: app\n        operator: add\n        value: [\"--region={region}\"]\n---\napiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata:\n  name: {namespace}-configuration\n  namespace: {namespace}\nspec:\n  resourceSelectors:\n  - apiVersion: v1\n    kind: ConfigMap\n    labelSelector:\n      matchLabels: {{fleet.example.com/config: service}}\n  overrideRules:\n  - targetCluster:\n      labelSelector:\n        matchLabels: {{topology.kubernetes.io/region: {region}}}\n    overriders:\n      fieldOverrider:\n      - fieldPath: /data/config.yaml\n        yaml:\n        - subPath: /database/host\n          operator: replace\n          value: db.{region}.example.net\n"
    )
}

/// The labels and annotations every object of a release carries, as Helm's common chart
/// writes them.
fn helm_labels(release: &str, chart: &str, version: &str, tier: &str) -> String {
    format!(
        "    app.kubernetes.io/name: {chart}\n    app.kubernetes.io/instance: {release}\n    app.kubernetes.io/version: {version}\n    app.kubernetes.io/managed-by: Helm\n    helm.sh/chart: {chart}-{version}\n    fleet.example.com/tier: {tier}\n"
    )
}

/// The labels a release's pods are selected by, each line indented by `indent` spaces.
fn selector_lines(chart: &str, release: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    format!("{pad}app.kubernetes.io/name: {chart}\n{pad}app.kubernetes.io/instance: {release}\n")
}

fn helm_annotations(release: &str, namespace: &str) -> String {
    format!(
        "    meta.helm.sh/release-name: {release}\n    meta.helm.sh/release-namespace: {namespace}\n"
    )
}

/// A hex digest as a chart's `checksum/config` writes it: a digit leads it most of the time.
fn digest(rng: &mut Rng) -> String {
    (0..4).map(|_| format!("{:016x}", rng.next())).collect()
}

fn version(index: usize, revision: u64) -> String {
    if revision > 0 && index.is_multiple_of(89) {
        format!("1.{}.0", 30 + revision)
    } else {
        format!("1.{}.{}", 20 + index % 9, index % 13)
    }
}

fn service_release(
    release: &str,
    namespace: &str,
    index: usize,
    revision: u64,
    rng: &mut Rng,
) -> String {
    let version = version(index, revision);
    let tier = if index.is_multiple_of(3) {
        "frontend"
    } else {
        "backend"
    };
    let labels = helm_labels(release, "service", &version, tier);
    let annotations = helm_annotations(release, namespace);
    let selector = selector_lines("service", release, 6);
    let pod_labels = selector_lines("service", release, 8);
    let service_selector = selector_lines("service", release, 4);
    let affinity_selector = selector_lines("service", release, 18);
    let mut text = String::new();
    writeln!(text, "---\n# Source: service/templates/serviceaccount.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n{annotations}    iam.gke.io/gcp-service-account: {release}@acme-prod.iam.gserviceaccount.com\nautomountServiceAccountToken: false").unwrap();
    writeln!(text, "---\n# Source: service/templates/configmap.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}    fleet.example.com/config: service\n  annotations:\n{annotations}data:\n  LOG_LEVEL: info\n  HTTP_PORT: \"8080\"\n  GRPC_MAX_MESSAGE_BYTES: \"4194304\"\n  OTEL_EXPORTER_OTLP_ENDPOINT: http://otel-collector.observability:4317\n  config.yaml: |\n    server:\n      listen: 0.0.0.0:8080\n      readTimeout: 15s\n    database:\n      host: db.internal.example.net\n      port: 5432\n      pool: {}\n    features:\n      checkout-v2: {}\n      maintenanceWindow: \"0{}:00\"", 5 + rng.below(20), index.is_multiple_of(2), index % 7).unwrap();
    let checksum = digest(rng);
    let replicas = 2 + rng.below(6);
    write!(text, "---\n# Source: service/templates/deployment.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n{annotations}    external-dns.alpha.kubernetes.io/target: 203.0.113.{}\nspec:\n  replicas: {replicas}\n  revisionHistoryLimit: 10\n  progressDeadlineSeconds: 600\n  selector:\n    matchLabels:\n{selector}  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 25%\n      maxUnavailable: 25%\n  template:\n    metadata:\n      labels:\n{pod_labels}        app.kubernetes.io/version: {version}\n      annotations:\n        checksum/config: {checksum}\n        kubectl.kubernetes.io/restartedAt: 2026-11-{:02}T{:02}:{:02}:00Z\n        cluster-autoscaler.kubernetes.io/safe-to-evict: \"true\"\n    spec:\n      serviceAccountName: {release}\n      automountServiceAccountToken: false\n      terminationGracePeriodSeconds: 45\n      securityContext:\n        runAsNonRoot: true\n        runAsUser: 65532\n        runAsGroup: 65532\n        fsGroup: 65532\n        seccompProfile:\n          type: RuntimeDefault\n      affinity:\n        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n          - weight: 100\n            podAffinityTerm:\n              topologyKey: kubernetes.io/hostname\n              labelSelector:\n                matchLabels:\n{affinity_selector}      containers:\n      - name: app\n        image: ghcr.io/acme/{release}:{version}@sha256:{}\n        imagePullPolicy: IfNotPresent\n        args:\n        - serve\n        - --config=/etc/app/config.yaml\n        ports:\n        - name: http\n          containerPort: 8080\n          protocol: TCP\n        - name: grpc\n          containerPort: 9000\n          protocol: TCP\n        envFrom:\n        - configMapRef:\n            name: {release}\n        env:\n        - name: POD_NAME\n          valueFrom:\n            fieldRef:\n              fieldPath: metadata.name\n        - name: GOMEMLIMIT\n          value: {}MiB\n        - name: RELEASE\n          value: {version}\n        resources:\n          requests:\n            cpu: {}m\n            memory: {}Mi\n          limits:\n            memory: {}Mi\n        startupProbe:\n          httpGet:\n            path: /healthz\n            port: http\n          failureThreshold: 30\n          periodSeconds: 2\n        readinessProbe:\n          httpGet:\n            path: /readyz\n            port: http\n        livenessProbe:\n          grpc:\n            port: 9000\n          initialDelaySeconds: 10\n        securityContext:\n          allowPrivilegeEscalation: false\n          readOnlyRootFilesystem: true\n          capabilities:\n            drop: [ALL]\n        volumeMounts:\n        - name: config\n          mountPath: /etc/app\n          readOnly: true\n      volumes:\n      - name: config\n        configMap:\n          name: {release}\n", 1 + rng.below(250), 1 + rng.below(28), rng.below(24), rng.below(60), digest(rng), 200 + rng.below(800), 100 + rng.below(900), 256 + rng.below(768), 1024 + rng.below(1024)).unwrap();
    writeln!(text, "---\n# Source: service/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n{annotations}spec:\n  type: ClusterIP\n  ipFamilyPolicy: SingleStack\n  ports:\n  - name: http\n    port: 80\n    targetPort: http\n  - name: grpc\n    port: 9000\n    targetPort: grpc\n    appProtocol: kubernetes.io/h2c\n  selector:\n{service_selector}").unwrap();
    writeln!(text, "---\n# Source: service/templates/pdb.yaml\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}spec:\n  minAvailable: 50%\n  selector:\n    matchLabels:\n{selector}").unwrap();
    writeln!(text, "---\n# Source: service/templates/networkpolicy.yaml\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}spec:\n  podSelector:\n    matchLabels:\n{selector}  policyTypes: [Ingress, Egress]\n  ingress:\n  - from:\n    - namespaceSelector:\n        matchLabels:\n          kubernetes.io/metadata.name: ingress-nginx\n    - ipBlock:\n        cidr: 10.{}.0.0/16\n        except:\n        - 10.{}.255.0/24\n    ports:\n    - port: 8080\n      protocol: TCP\n  egress:\n  - to:\n    - ipBlock:\n        cidr: 172.16.0.0/12\n    ports:\n    - port: 5432\n  - ports:\n    - port: 53\n      protocol: UDP", index % 200, index % 200).unwrap();
    writeln!(text, "---\n# Source: service/templates/servicemonitor.yaml\napiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}    release: kube-prometheus-stack\nspec:\n  selector:\n    matchLabels:\n{selector}  endpoints:\n  - port: http\n    path: /metrics\n    interval: 30s\n    scrapeTimeout: 10s\n    honorLabels: true").unwrap();
    text
}

fn stateful_release(
    release: &str,
    namespace: &str,
    index: usize,
    revision: u64,
    rng: &mut Rng,
) -> String {
    let version = version(index, revision);
    let labels = helm_labels(release, "postgresql", &version, "data");
    let annotations = helm_annotations(release, namespace);
    let selector = selector_lines("postgresql", release, 6);
    let pod_labels = selector_lines("postgresql", release, 8);
    let service_selector = selector_lines("postgresql", release, 4);
    let mut text = String::new();
    writeln!(text, "---\n# Source: postgresql/templates/serviceaccount.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n{annotations}automountServiceAccountToken: false").unwrap();
    writeln!(text, "---\n# Source: postgresql/templates/configmap.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {release}-configuration\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n{annotations}data:\n  postgresql.conf: |\n    listen_addresses = '*'\n    port = '5432'\n    max_connections = '{}'\n    shared_buffers = '{}MB'\n    wal_level = 'replica'\n    checkpoint_timeout = '5min'\n    log_timezone = 'UTC'\n    archive_command = '/bin/true'\n  pg_hba.conf: |\n    host all all 10.0.0.0/8 scram-sha-256\n    host all all 127.0.0.1/32 trust\n    local all all trust", 100 + rng.below(400), 128 * (1 + rng.below(8))).unwrap();
    writeln!(text, "---\n# Source: postgresql/templates/svc-headless.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: {release}-hl\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n{annotations}    service.alpha.kubernetes.io/tolerate-unready-endpoints: \"true\"\nspec:\n  type: ClusterIP\n  clusterIP: None\n  publishNotReadyAddresses: true\n  ports:\n  - name: tcp-postgresql\n    port: 5432\n    targetPort: tcp-postgresql\n  selector:\n{service_selector}").unwrap();
    writeln!(text, "---\n# Source: postgresql/templates/pdb.yaml\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}spec:\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n{selector}").unwrap();
    writeln!(text, "---\n# Source: postgresql/templates/statefulset.yaml\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n{annotations}spec:\n  replicas: {}\n  serviceName: {release}-hl\n  podManagementPolicy: OrderedReady\n  updateStrategy:\n    type: RollingUpdate\n  selector:\n    matchLabels:\n{selector}  template:\n    metadata:\n      labels:\n{pod_labels}      annotations:\n        checksum/configuration: {}\n    spec:\n      serviceAccountName: {release}\n      securityContext:\n        fsGroup: 1001\n        fsGroupChangePolicy: OnRootMismatch\n      initContainers:\n      - name: init-chmod-data\n        image: docker.io/bitnami/os-shell:12-debian-12-r{}\n        command: [/bin/sh, -ec, \"chown 1001:1001 /bitnami/postgresql\"]\n        securityContext:\n          runAsUser: 0\n        volumeMounts:\n        - name: data\n          mountPath: /bitnami/postgresql\n      containers:\n      - name: postgresql\n        image: docker.io/bitnami/postgresql:16.{}.0-debian-12-r{}\n        imagePullPolicy: IfNotPresent\n        securityContext:\n          runAsUser: 1001\n          runAsNonRoot: true\n          allowPrivilegeEscalation: false\n          capabilities:\n            drop: [ALL]\n        env:\n        - name: POSTGRESQL_PORT_NUMBER\n          value: \"5432\"\n        - name: POSTGRESQL_VOLUME_DIR\n          value: /bitnami/postgresql\n        - name: PGDATA\n          value: /bitnami/postgresql/data\n        - name: POSTGRES_PASSWORD\n          valueFrom:\n            secretKeyRef:\n              name: {release}\n              key: postgres-password\n        ports:\n        - name: tcp-postgresql\n          containerPort: 5432\n        livenessProbe:\n          exec:\n            command: [/bin/sh, -c, exec pg_isready -U postgres -h 127.0.0.1 -p 5432]\n          initialDelaySeconds: 30\n          periodSeconds: 10\n        resources:\n          requests:\n            cpu: {}m\n            memory: {}Mi\n          limits:\n            cpu: 1500m\n            memory: 4Gi\n        volumeMounts:\n        - name: data\n          mountPath: /bitnami/postgresql\n        - name: configuration\n          mountPath: /bitnami/postgresql/conf\n      volumes:\n      - name: configuration\n        configMap:\n          name: {release}-configuration\n  volumeClaimTemplates:\n  - apiVersion: v1\n    kind: PersistentVolumeClaim\n    metadata:\n      name: data\n    spec:\n      accessModes: [ReadWriteOnce]\n      storageClassName: gp3\n      resources:\n        requests:\n          storage: {}Gi", 1 + rng.below(3), digest(rng), 10 + rng.below(40), rng.below(6), rng.below(30), 250 + rng.below(750), 256 * (1 + rng.below(8)), 8 * (1 + rng.below(32))).unwrap();
    text
}

fn batch_release(
    release: &str,
    namespace: &str,
    index: usize,
    revision: u64,
    rng: &mut Rng,
) -> String {
    let version = version(index, revision);
    let labels = helm_labels(release, "cronjob", &version, "batch");
    let annotations = helm_annotations(release, namespace);
    let mut text = String::new();
    writeln!(text, "---\n# Source: cronjob/templates/serviceaccount.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n{annotations}").unwrap();
    writeln!(text, "---\n# Source: cronjob/templates/role.yaml\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}rules:\n- apiGroups: [\"\"]\n  resources: [configmaps]\n  verbs: [get, list, watch]\n- apiGroups: [batch]\n  resources: [jobs]\n  verbs: [get, list, create, delete]").unwrap();
    writeln!(text, "---\n# Source: cronjob/templates/rolebinding.yaml\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: {release}\nsubjects:\n- kind: ServiceAccount\n  name: {release}\n  namespace: {namespace}").unwrap();
    // Schedules as charts write them: some quoted, most plain words with spaces.
    let schedule = match index % 4 {
        0 => format!("\"*/{} * * * *\"", 5 + index % 25),
        1 => format!("{} {} * * *", index % 60, index % 24),
        2 => format!("{} {} * * 1-5", index % 60, index % 24),
        _ => "'@hourly'".to_string(),
    };
    writeln!(text, "---\n# Source: cronjob/templates/cronjob.yaml\napiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: {release}\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n{annotations}spec:\n  schedule: {schedule}\n  timeZone: Europe/Berlin\n  concurrencyPolicy: Forbid\n  startingDeadlineSeconds: 300\n  successfulJobsHistoryLimit: 3\n  failedJobsHistoryLimit: 1\n  jobTemplate:\n    spec:\n      backoffLimit: 2\n      activeDeadlineSeconds: {}\n      ttlSecondsAfterFinished: 86400\n      template:\n        metadata:\n          labels:\n            app.kubernetes.io/name: cronjob\n            app.kubernetes.io/instance: {release}\n        spec:\n          serviceAccountName: {release}\n          restartPolicy: OnFailure\n          containers:\n          - name: job\n            image: ghcr.io/acme/{release}:{version}\n            args: [run, --batch-size={}, --since=24h]\n            env:\n            - name: TZ\n              value: Europe/Berlin\n            resources:\n              requests:\n                cpu: 100m\n                memory: {}Mi", 600 + rng.below(3000), 100 * (1 + rng.below(50)), 128 + rng.below(512)).unwrap();
    text
}

/// The ServiceMonitor CRD the fleet ships (a subset of the Prometheus operator's schema, as
/// trimmed CRDs in platform repositories are), so the fleet's ServiceMonitors are checked
/// against it.
const SERVICE_MONITOR_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: servicemonitors.monitoring.coreos.com
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.1
    operator.prometheus.io/version: 0.78.2
spec:
  group: monitoring.coreos.com
  names:
    kind: ServiceMonitor
    listKind: ServiceMonitorList
    plural: servicemonitors
    shortNames: [smon]
    singular: servicemonitor
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        required: [spec]
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            type: object
            required: [selector]
            properties:
              jobLabel:
                type: string
              endpoints:
                type: array
                items:
                  type: object
                  properties:
                    port:
                      type: string
                    path:
                      type: string
                    scheme:
                      type: string
                      enum: [http, https]
                    interval:
                      type: string
                      pattern: ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$
                    scrapeTimeout:
                      type: string
                      pattern: ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$
                    honorLabels:
                      type: boolean
                  x-kubernetes-validations:
                  - rule: '!has(self.scrapeTimeout) || has(self.interval)'
                    message: scrapeTimeout needs an interval
              namespaceSelector:
                type: object
                properties:
                  any:
                    type: boolean
                  matchNames:
                    type: array
                    items:
                      type: string
              selector:
                type: object
                properties:
                  matchLabels:
                    type: object
                    additionalProperties:
                      type: string
                  matchExpressions:
                    type: array
                    items:
                      type: object
                      required: [key, operator]
                      properties:
                        key:
                          type: string
                        operator:
                          type: string
                        values:
                          type: array
                          items:
                            type: string
                x-kubernetes-map-type: atomic
";
