//! The platform fleet: the benchmark's second fleet, shaped as platform repositories are
//! rather than for the benchmark. Each team namespace holds applications made of the objects
//! a real one ships together — a Deployment with its ServiceAccount, Service, ConfigMap,
//! HorizontalPodAutoscaler and (for web applications) an Ingress —, ConfigMaps carry what teams
//! write in them (YAML 1.1 words and numbers as quoted strings, multi-line files, JSON), and
//! policies are many and overlapping: eleven ClusterPropagationPolicies and three namespaced
//! PropagationPolicies selecting by label, an OverridePolicy per namespace rewriting image tags,
//! labels and annotations on some clusters, and a ClusterOverridePolicy over every object.
//!
//! Generated deterministically, so every run builds the same fleet.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::fleet_generator::{Rng, fresh_fleet_dir};

const REGIONS: &[&str] = &["eu-west", "eu-central", "us-east", "us-west", "ap-south"];
const TEAMS: &[&str] = &[
    "checkout", "catalog", "identity", "payments", "search", "media", "ledger", "notify",
    "platform", "growth",
];

/// What teams write into ConfigMaps and environment variables: words YAML 1.1 would read as
/// booleans, numbers Go's reader would turn into floats or octals, times it would read as
/// sexagesimal — all quoted, so they stay strings — and ordinary values.
const QUOTED_VALUES: &[&str] = &[
    "\"yes\"",
    "\"no\"",
    "\"on\"",
    "\"off\"",
    "\"true\"",
    "\"0755\"",
    "\"1e3\"",
    "\"12:30\"",
    "\"0x1F\"",
    "\"1_000\"",
    "\"~\"",
    "\"null\"",
    "\"3.0\"",
    "\"-\"",
    "\"08\"",
    "\"y\"",
];

/// Writes a platform fleet of about `templates` templates (whole applications, so a few more)
/// and `clusters` clusters under `dir`; returns the fleet directory (the inventory is
/// `dir/clusters.yaml`). `revision` bumps a few images, for `diff` between nearby revisions.
pub fn generate_platform(dir: &Path, templates: usize, clusters: usize, revision: u64) -> PathBuf {
    let fleet = fresh_fleet_dir(dir);
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    std::fs::write(dir.join("clusters.yaml"), inventory(clusters, &mut rng)).unwrap();
    std::fs::write(fleet.join("propagation.yaml"), propagation_policies()).unwrap();
    std::fs::write(fleet.join("overrides.yaml"), cluster_override()).unwrap();
    // About six templates an application, forty applications a namespace at the largest sizes.
    let applications = templates.div_ceil(6);
    let namespaces = applications.div_ceil(40).max(TEAMS.len().min(applications));
    let mut written = 0;
    for ns in 0..namespaces {
        let team = TEAMS[ns % TEAMS.len()];
        let namespace = format!("{team}-{}", ns / TEAMS.len());
        let team_dir = fleet.join(team).join(&namespace);
        std::fs::create_dir_all(&team_dir).unwrap();
        let mut namespace_text = format!(
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {namespace}\n  labels:\n    team: {team}\n    fleet.example.com/managed: \"true\"\n"
        );
        namespace_text.push_str(&namespace_override(&namespace, ns));
        if ns < 3 {
            namespace_text.push_str(&namespace_propagation(&namespace, ns));
        }
        std::fs::write(team_dir.join("namespace.yaml"), namespace_text).unwrap();
        let here = (applications - written).div_ceil(namespaces - ns);
        for _ in 0..here {
            let name = format!("{team}-app-{written:05}");
            let text = application(&name, &namespace, team, written, revision, &mut rng);
            std::fs::write(team_dir.join(format!("{name}.yaml")), text).unwrap();
            written += 1;
        }
    }
    fleet
}

fn inventory(clusters: usize, rng: &mut Rng) -> String {
    let mut text = String::new();
    for index in 0..clusters {
        let region = REGIONS[index % REGIONS.len()];
        let environment = ["production", "staging", "production", "development"][index / 5 % 4];
        let name = format!("{environment}-{region}-{index:02}");
        writeln!(
            text,
            "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: {name}\n  labels:\n    region: {region}\n    environment: {environment}\n    network: {}\n    gpu: \"{}\"\nspec:\n  syncMode: {}\n  provider: {}\n  region: {region}\n  zones: [{region}-1a, {region}-1b, {region}-1c]\nstatus:\n  kubernetesVersion: v1.{}.{}\n  resourceSummary:\n    allocatable: {{cpu: \"96\", memory: 384Gi, pods: \"1650\"}}\n    allocated: {{cpu: \"{}\", memory: {}Gi, pods: \"{}\"}}",
            if index.is_multiple_of(3) { "private" } else { "public" },
            index.is_multiple_of(4),
            if index.is_multiple_of(2) { "Push" } else { "Pull" },
            ["aws", "gcp", "azure"][index % 3],
            30 + index % 3,
            rng.below(8),
            rng.below(60),
            64 + rng.below(200),
            rng.below(900),
        )
        .unwrap();
    }
    text
}

/// Eleven ClusterPropagationPolicies, overlapping as they do when several teams add theirs:
/// the priority decides.
fn propagation_policies() -> String {
    let mut text = String::new();
    let mut cluster_policy = |name: &str, priority: u32, selectors: &str, placement: &str| {
        writeln!(text, "---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n  name: {name}\nspec:\n  priority: {priority}\n  resourceSelectors:\n{selectors}\n  placement:\n{placement}").unwrap();
    };
    let everywhere = "    clusterAffinity:\n      labelSelector:\n        matchExpressions:\n        - {key: environment, operator: Exists}";
    cluster_policy(
        "namespaces",
        0,
        "  - apiVersion: v1\n    kind: Namespace\n    labelSelector:\n      matchLabels: {fleet.example.com/managed: \"true\"}",
        everywhere,
    );
    cluster_policy(
        "service-accounts",
        0,
        "  - apiVersion: v1\n    kind: ServiceAccount",
        everywhere,
    );
    for (tier, environments) in [
        ("web", "[production, staging]"),
        ("api", "[production, staging, development]"),
        ("worker", "[production]"),
    ] {
        let selected = |kind_selectors: &[(&str, &str)]| {
            kind_selectors
                .iter()
                .map(|(api_version, kind)| format!("  - apiVersion: {api_version}\n    kind: {kind}\n    labelSelector:\n      matchLabels: {{app.kubernetes.io/component: {tier}}}"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        cluster_policy(
            &format!("{tier}-duplicated"),
            1,
            &selected(&[
                ("apps/v1", "Deployment"),
                ("v1", "Service"),
                ("v1", "ConfigMap"),
                ("autoscaling/v2", "HorizontalPodAutoscaler"),
            ]),
            &format!(
                "    clusterAffinity:\n      labelSelector:\n        matchExpressions:\n        - {{key: environment, operator: In, values: {environments}}}"
            ),
        );
        cluster_policy(
            &format!("{tier}-divided"),
            2,
            &format!(
                "  - apiVersion: apps/v1\n    kind: Deployment\n    labelSelector:\n      matchLabels: {{app.kubernetes.io/component: {tier}, fleet.example.com/replicas: divided}}"
            ),
            "    clusterAffinity:\n      labelSelector:\n        matchLabels: {environment: production}\n    replicaScheduling:\n      replicaSchedulingType: Divided\n      replicaDivisionPreference: Weighted\n      weightPreference:\n        staticWeightList:\n        - targetCluster: {labelSelector: {matchLabels: {region: eu-west}}}\n          weight: 3\n        - targetCluster: {labelSelector: {matchLabels: {region: us-east}}}\n          weight: 2\n        - targetCluster: {labelSelector: {matchExpressions: [{key: region, operator: NotIn, values: [eu-west, us-east]}]}}\n          weight: 1",
        );
    }
    cluster_policy(
        "public-ingress",
        0,
        "  - apiVersion: networking.k8s.io/v1\n    kind: Ingress",
        "    clusterAffinity:\n      labelSelector:\n        matchLabels: {network: public}\n      fieldSelector:\n        matchExpressions:\n        - {key: region, operator: In, values: [eu-west, us-east, ap-south]}",
    );
    cluster_policy(
        "gpu-workers",
        5,
        "  - apiVersion: apps/v1\n    kind: Deployment\n    labelSelector:\n      matchLabels: {fleet.example.com/gpu: \"true\"}",
        "    clusterAffinity:\n      labelSelector:\n        matchLabels: {gpu: \"true\"}\n    spreadConstraints:\n    - spreadByField: region\n      maxGroups: 3\n      minGroups: 1\n    - spreadByField: cluster\n      maxGroups: 6\n      minGroups: 1",
    );
    cluster_policy(
        "team-configs",
        3,
        "  - apiVersion: v1\n    kind: ConfigMap\n    labelSelector:\n      matchLabels: {fleet.example.com/shared: \"true\"}",
        everywhere,
    );
    text
}

/// One ClusterOverridePolicy over every object of the fleet (no resource selector), as platform
/// teams stamp ownership and the environment on everything.
fn cluster_override() -> String {
    let mut text = String::from(
        "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata:\n  name: fleet-stamp\nspec:\n  overrideRules:\n",
    );
    for environment in ["production", "staging", "development"] {
        writeln!(text, "  - targetCluster:\n      labelSelector:\n        matchLabels: {{environment: {environment}}}\n    overriders:\n      labelsOverrider:\n      - operator: add\n        value: {{fleet.example.com/environment: {environment}}}\n      annotationsOverrider:\n      - operator: add\n        value: {{fleet.example.com/rendered-by: fedrender}}").unwrap();
    }
    text
}

/// A namespace's own OverridePolicy: staging runs the next tag, one region pulls from its mirror,
/// and the team's labels and annotations.
fn namespace_override(namespace: &str, ns: usize) -> String {
    let region = REGIONS[ns % REGIONS.len()];
    format!(
        "---\napiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata:\n  name: {namespace}-overrides\n  namespace: {namespace}\nspec:\n  resourceSelectors:\n  - apiVersion: apps/v1\n    kind: Deployment\n  overrideRules:\n  - targetCluster:\n      labelSelector:\n        matchLabels: {{environment: staging}}\n    overriders:\n      imageOverrider:\n      - component: Tag\n        operator: replace\n        value: next\n      annotationsOverrider:\n      - operator: add\n        value: {{fleet.example.com/channel: next}}\n  - targetCluster:\n      labelSelector:\n        matchLabels: {{region: {region}}}\n    overriders:\n      imageOverrider:\n      - component: Registry\n        operator: replace\n        value: mirror.{region}.example.com\n      labelsOverrider:\n      - operator: add\n        value: {{fleet.example.com/mirror: {region}}}\n"
    )
}

/// Three namespaces place their applications themselves, over the cluster-wide policies.
fn namespace_propagation(namespace: &str, ns: usize) -> String {
    let environments = [
        "[production]",
        "[staging, development]",
        "[production, staging]",
    ][ns];
    format!(
        "---\napiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: {namespace}-own\n  namespace: {namespace}\nspec:\n  resourceSelectors:\n  - apiVersion: apps/v1\n    kind: Deployment\n    labelSelector:\n      matchLabels: {{fleet.example.com/placement: team}}\n  - apiVersion: v1\n    kind: Service\n    labelSelector:\n      matchLabels: {{fleet.example.com/placement: team}}\n  placement:\n    clusterAffinity:\n      labelSelector:\n        matchExpressions:\n        - {{key: environment, operator: In, values: {environments}}}\n"
    )
}

/// One application: its ServiceAccount, ConfigMap, Deployment, Service, HPA and, for a web
/// component, its Ingress.
fn application(
    name: &str,
    namespace: &str,
    team: &str,
    index: usize,
    revision: u64,
    rng: &mut Rng,
) -> String {
    let component = rng.pick(&["web", "api", "worker"]);
    let divided = index.is_multiple_of(2);
    let tag = if revision > 0 && index.is_multiple_of(97) {
        format!("2.{}.0", revision + 4)
    } else {
        format!("2.{}.{}", 3 + index % 5, index % 11)
    };
    // As charts and teams write them, unquoted: a dotted version, a chart label, a digit-first
    // build ID (and below, a maintenance window's time); Go reads each as a string.
    let mut labels = format!(
        "    app.kubernetes.io/name: {name}\n    app.kubernetes.io/part-of: {team}\n    app.kubernetes.io/component: {component}\n    app.kubernetes.io/managed-by: fedrender\n    app.kubernetes.io/version: {tag}\n    helm.sh/chart: {component}-1.{}.{}\n    fleet.example.com/build: {}f{:x}\n",
        index % 7,
        index % 3,
        1 + index % 9,
        index * 2_654_435_761 % 65_536
    );
    if index.is_multiple_of(13) {
        labels.push_str("    fleet.example.com/placement: team\n");
    }
    let mut text = String::new();
    writeln!(text, "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {name}\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n    eks.amazonaws.com/role-arn: arn:aws:iam::123456789012:role/{name}").unwrap();
    let shared = if index.is_multiple_of(7) {
        "    fleet.example.com/shared: \"true\"\n"
    } else {
        ""
    };
    write!(text, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}-config\n  namespace: {namespace}\n  labels:\n{labels}{shared}data:\n").unwrap();
    for key in [
        "FEATURE_FLAGS_ENABLED",
        "CACHE_MODE",
        "UMASK",
        "MAX_ITEMS",
        "WINDOW",
        "DEBUG",
    ] {
        writeln!(text, "  {key}: {}", rng.pick(QUOTED_VALUES)).unwrap();
    }
    writeln!(text, "  LOG_FORMAT: json\n  UPSTREAM_URL: http://{name}.{namespace}.svc.cluster.local:8080\n  application.yaml: |\n    server:\n      port: 8080\n      shutdown: graceful\n    management:\n      endpoints:\n        web:\n          exposure:\n            include: \"health,info,prometheus\"\n    app:\n      name: {name}\n      retries: {}\n      timeout: 30s\n  logback.xml: |\n    <configuration>\n      <appender name=\"STDOUT\" class=\"ch.qos.logback.core.ConsoleAppender\">\n        <encoder class=\"net.logstash.logback.encoder.LogstashEncoder\"/>\n      </appender>\n      <root level=\"INFO\"><appender-ref ref=\"STDOUT\"/></root>\n    </configuration>\n  limits.json: '{{\"rps\": {}, \"burst\": {}, \"enabled\": true}}'", 1 + rng.below(5), 100 + rng.below(900), rng.below(50)).unwrap();
    let gpu = if component == "worker" && index.is_multiple_of(11) {
        "    fleet.example.com/gpu: \"true\"\n"
    } else {
        ""
    };
    let division = if divided {
        "    fleet.example.com/replicas: divided\n"
    } else {
        ""
    };
    write!(text, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  namespace: {namespace}\n  labels:\n{labels}{gpu}{division}  annotations:\n    fleet.example.com/owner: team-{team}@example.com\n    fleet.example.com/window: 0{}:30\n    fleet.example.com/runbook: https://runbooks.example.com/{team}/{name}\nspec:\n  replicas: {}\n  revisionHistoryLimit: 5\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: {name}\n  strategy:\n    type: RollingUpdate\n    rollingUpdate: {{maxSurge: 25%, maxUnavailable: 0}}\n  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: {name}\n        app.kubernetes.io/component: {component}\n      annotations:\n        prometheus.io/scrape: \"true\"\n        prometheus.io/port: \"9090\"\n    spec:\n      serviceAccountName: {name}\n      securityContext: {{runAsNonRoot: true, runAsUser: 10001, fsGroup: 10001}}\n      topologySpreadConstraints:\n      - maxSkew: 1\n        topologyKey: topology.kubernetes.io/zone\n        whenUnsatisfiable: ScheduleAnyway\n        labelSelector:\n          matchLabels: {{app.kubernetes.io/name: {name}}}\n      containers:\n", index % 6, 2 + rng.below(10)).unwrap();
    let containers = [("app", name), ("proxy", "envoy")];
    for (container, image) in &containers[..1 + usize::from(index.is_multiple_of(3))] {
        write!(text, "      - name: {container}\n        image: registry.example.com/{team}/{image}:{tag}\n        imagePullPolicy: IfNotPresent\n        args: [\"--config=/etc/{name}/application.yaml\", \"--port=8080\"]\n        ports:\n        - {{name: http, containerPort: 8080}}\n        - {{name: metrics, containerPort: 9090}}\n        env:\n        - name: ENVIRONMENT_NAME\n          value: \"{}\"\n        - name: GOMAXPROCS\n          valueFrom:\n            resourceFieldRef: {{resource: limits.cpu}}\n        - name: POD_IP\n          valueFrom:\n            fieldRef: {{fieldPath: status.podIP}}\n        envFrom:\n        - configMapRef: {{name: {name}-config}}\n        resources:\n          requests: {{cpu: {}m, memory: {}Mi}}\n          limits: {{cpu: \"2\", memory: {}Mi}}\n        readinessProbe:\n          httpGet: {{path: /healthz/ready, port: http}}\n          periodSeconds: 5\n          failureThreshold: 3\n        livenessProbe:\n          httpGet: {{path: /healthz/live, port: http}}\n          initialDelaySeconds: 15\n        securityContext:\n          allowPrivilegeEscalation: false\n          readOnlyRootFilesystem: true\n          capabilities:\n            drop:\n            - ALL\n        volumeMounts:\n        - {{name: config, mountPath: /etc/{name}, readOnly: true}}\n        - {{name: tmp, mountPath: /tmp}}\n", rng.pick(QUOTED_VALUES).trim_matches('"'), 50 + rng.below(950), 128 + rng.below(900), 1024 + rng.below(3072)).unwrap();
    }
    writeln!(text, "      volumes:\n      - name: config\n        configMap: {{name: {name}-config}}\n      - name: tmp\n        emptyDir: {{sizeLimit: 256Mi}}").unwrap();
    writeln!(text, "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n  namespace: {namespace}\n  labels:\n{labels}spec:\n  type: ClusterIP\n  selector:\n    app.kubernetes.io/name: {name}\n  ports:\n  - {{name: http, port: 80, targetPort: http, protocol: TCP}}\n  - {{name: metrics, port: 9090, targetPort: metrics, protocol: TCP}}").unwrap();
    writeln!(text, "---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: {name}\n  namespace: {namespace}\n  labels:\n{labels}spec:\n  scaleTargetRef: {{apiVersion: apps/v1, kind: Deployment, name: {name}}}\n  minReplicas: 2\n  maxReplicas: {}\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target: {{type: Utilization, averageUtilization: 70}}\n  behavior:\n    scaleDown:\n      stabilizationWindowSeconds: 300", 10 + rng.below(40)).unwrap();
    if component == "web" {
        writeln!(text, "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {name}\n  namespace: {namespace}\n  labels:\n{labels}  annotations:\n    cert-manager.io/cluster-issuer: letsencrypt\n    nginx.ingress.kubernetes.io/proxy-body-size: 8m\nspec:\n  ingressClassName: nginx\n  tls:\n  - hosts: [{name}.example.com]\n    secretName: {name}-tls\n  rules:\n  - host: {name}.example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: {name}\n            port:\n              name: http").unwrap();
    }
    text
}
