//! The benchmark fleet: generated deterministically, so every run (and the test that checks it
//! renders without a schema finding) builds the same fleet.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A small deterministic generator (xorshift64*), so every run builds the same fleet.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

pub const REGIONS: &[&str] = &["eu-west", "eu-central", "us-east", "us-west", "ap-south"];
pub const ENVIRONMENTS: &[&str] = &["production", "staging"];
const TIERS: &[&str] = &["web", "data", "batch"];
const TEAMS: &[&str] = &[
    "shop", "payments", "search", "identity", "media", "ads", "ml", "platform",
];

/// The kind of the fleet's workloads: Deployments (Karmada's native interpreter) or OpenKruise
/// CloneSets (its built-in Lua interpretation), otherwise the same fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    Deployment,
    #[allow(dead_code)] // the benchmark uses it, the test does not
    CloneSet,
}

impl Workload {
    fn apply(self, text: &str) -> String {
        match self {
            Workload::Deployment => text.to_string(),
            Workload::CloneSet => text
                .replace(
                    "apiVersion: apps/v1\nkind: Deployment",
                    "apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet",
                )
                .replace(
                    "- apiVersion: apps/v1\n    kind: Deployment",
                    "- apiVersion: apps.kruise.io/v1alpha1\n    kind: CloneSet",
                ),
        }
    }
}

/// Empties `dir` and makes its `fleet` directory, which every generated fleet is written into
/// (its inventory beside it); returns that directory.
pub fn fresh_fleet_dir(dir: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    let fleet = dir.join("fleet");
    std::fs::create_dir_all(&fleet).unwrap();
    fleet
}

/// Writes `templates` templates, the policies and `clusters` clusters under `dir`.
/// `revision` perturbs a few templates, for `diff` between nearby revisions.
pub fn generate(
    dir: &Path,
    templates: usize,
    clusters: usize,
    revision: u64,
    workload: Workload,
) -> PathBuf {
    let fleet = fresh_fleet_dir(dir);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let namespaces = (templates / 40).max(2);
    let mut inventory = String::new();
    for index in 0..clusters {
        let region = REGIONS[index % REGIONS.len()];
        let environment = ENVIRONMENTS[(index / REGIONS.len()) % 2];
        let tier = TIERS[index % TIERS.len()];
        writeln!(
            inventory,
            "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: {region}-{environment}-{index:03}\n  labels:\n    region: {region}\n    environment: {environment}\n    tier: {tier}\nspec:\n  syncMode: Push\n  provider: {}\n  region: {region}\n  zones: [{region}-a, {region}-b]\nstatus:\n  kubernetesVersion: v1.{}.2\n  resourceSummary:\n    allocatable: {{cpu: \"64\", memory: 256Gi, pods: \"1100\"}}\n    allocated: {{cpu: \"{}\", memory: 64Gi, pods: \"{}\"}}",
            if index % 2 == 0 { "aws" } else { "gcp" },
            // Three versions across the fleet, as during a rolling upgrade.
            31 + index % 3,
            rng.below(40),
            rng.below(600),
        )
        .unwrap();
    }
    std::fs::write(dir.join("clusters.yaml"), inventory).unwrap();
    let mut policies = String::new();
    for (index, tier) in TIERS.iter().enumerate() {
        writeln!(policies, "---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n  name: {tier}-duplicated\nspec:\n  resourceSelectors:\n  - apiVersion: apps/v1\n    kind: Deployment\n    labelSelector:\n      matchLabels: {{tier: {tier}, division: duplicated}}\n  - apiVersion: v1\n    kind: Service\n    labelSelector:\n      matchLabels: {{tier: {tier}}}\n  - apiVersion: v1\n    kind: ConfigMap\n    labelSelector:\n      matchLabels: {{tier: {tier}}}\n  - apiVersion: v1\n    kind: ServiceAccount\n  - apiVersion: autoscaling/v2\n    kind: HorizontalPodAutoscaler\n  placement:\n    clusterAffinity:\n      labelSelector:\n        matchExpressions:\n        - {{key: tier, operator: In, values: [{tier}, {}]}}", TIERS[(index + 1) % 3]).unwrap();
        writeln!(policies, "---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n  name: {tier}-divided\nspec:\n  resourceSelectors:\n  - apiVersion: apps/v1\n    kind: Deployment\n    labelSelector:\n      matchLabels: {{tier: {tier}, division: divided}}\n  placement:\n    clusterAffinity:\n      labelSelector:\n        matchLabels: {{environment: production}}\n    replicaScheduling:\n      replicaSchedulingType: Divided\n      replicaDivisionPreference: Weighted\n      weightPreference:\n        staticWeightList:\n        - targetCluster: {{labelSelector: {{matchLabels: {{region: eu-west}}}}}}\n          weight: 3\n        - targetCluster: {{labelSelector: {{matchLabels: {{region: us-east}}}}}}\n          weight: 2\n        - targetCluster: {{labelSelector: {{matchExpressions: [{{key: region, operator: NotIn, values: [eu-west, us-east]}}]}}}}\n          weight: 1").unwrap();
    }
    writeln!(policies, "---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n  name: ingress-by-region\nspec:\n  resourceSelectors:\n  - apiVersion: networking.k8s.io/v1\n    kind: Ingress\n  placement:\n    clusterAffinity:\n      fieldSelector:\n        matchExpressions:\n        - {{key: region, operator: In, values: [eu-west, us-east, ap-south]}}").unwrap();
    for region in REGIONS {
        writeln!(policies, "---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata:\n  name: mirror-{region}\nspec:\n  resourceSelectors:\n  - apiVersion: apps/v1\n    kind: Deployment\n  overrideRules:\n  - targetCluster:\n      labelSelector:\n        matchLabels: {{region: {region}}}\n    overriders:\n      imageOverrider:\n      - component: Registry\n        operator: replace\n        value: mirror.{region}.example.com\n      labelsOverrider:\n      - operator: add\n        value: {{example.com/region: {region}}}\n      annotationsOverrider:\n      - operator: add\n        value: {{example.com/mirror: mirror.{region}.example.com}}").unwrap();
    }
    std::fs::write(fleet.join("policies.yaml"), workload.apply(&policies)).unwrap();
    let mut files: Vec<String> = vec![String::new(); namespaces];
    for ns in 0..namespaces {
        writeln!(
            files[ns],
            "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: {}-{ns:03}",
            TEAMS[ns % TEAMS.len()]
        )
        .unwrap();
    }
    for index in 0..templates {
        let ns = index % namespaces;
        let namespace = format!("{}-{ns:03}", TEAMS[ns % TEAMS.len()]);
        let tier = rng.pick(TIERS);
        let name = format!("app-{index:05}");
        let image_tag = if revision > 0 && index % 97 == 0 {
            revision + 1
        } else {
            1
        };
        let text = &mut files[ns];
        match index % 10 {
            0..=4 => {
                let division = if index % 2 == 0 { "divided" } else { "duplicated" };
                let containers = 1 + rng.below(3);
                writeln!(text, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  namespace: {namespace}\n  labels:\n    app: {name}\n    tier: {tier}\n    division: {division}\n  annotations:\n    example.com/owner: {namespace}\nspec:\n  replicas: {}\n  selector:\n    matchLabels:\n      app: {name}\n  strategy:\n    type: RollingUpdate\n    rollingUpdate: {{maxSurge: 25%, maxUnavailable: 0}}\n  template:\n    metadata:\n      labels:\n        app: {name}\n        tier: {tier}\n    spec:\n      serviceAccountName: {namespace}-runner\n      containers:", 1 + rng.below(12)).unwrap();
                for container in 0..containers {
                    writeln!(text, "      - name: c{container}\n        image: registry.example.com/{namespace}/{name}-{container}:v1.{image_tag}.0\n        ports:\n        - name: http\n          containerPort: {}\n        env:\n        - name: MODE\n          value: \"on\"\n        - name: LOG_LEVEL\n          value: info\n        - name: POD_NAME\n          valueFrom:\n            fieldRef: {{fieldPath: metadata.name}}\n        envFrom:\n        - configMapRef:\n            name: {name}-config\n        resources:\n          requests: {{cpu: {}m, memory: {}Mi}}\n          limits: {{memory: {}Mi}}\n        readinessProbe:\n          httpGet: {{path: /ready, port: http}}\n          periodSeconds: 5\n        livenessProbe:\n          httpGet: {{path: /live, port: http}}\n          initialDelaySeconds: 10", 8080 + container, 50 + rng.below(500), 64 + rng.below(512), 1024).unwrap();
                }
            }
            5 | 6 => writeln!(text, "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n  namespace: {namespace}\n  labels:\n    tier: {tier}\nspec:\n  selector:\n    app: {name}\n  ports:\n  - name: http\n    port: 80\n    targetPort: http").unwrap(),
            7 => writeln!(text, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}-config\n  namespace: {namespace}\n  labels:\n    tier: {tier}\ndata:\n  FEATURE_X: \"yes\"\n  TIMEOUT: \"30s\"\n  config.json: '{{\"replicas\": 3, \"name\": \"{name}\"}}'\n  application.properties: |\n    server.port=8080\n    app.name={name}\n    revision={image_tag}").unwrap(),
            8 => writeln!(text, "---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: {name}\n  namespace: {namespace}\nspec:\n  scaleTargetRef: {{apiVersion: apps/v1, kind: Deployment, name: {name}}}\n  minReplicas: 2\n  maxReplicas: 20\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target: {{type: Utilization, averageUtilization: 70}}").unwrap(),
            _ => writeln!(text, "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {name}\n  namespace: {namespace}\nspec:\n  rules:\n  - host: {name}.example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service: {{name: {name}, port: {{number: 80}}}}").unwrap(),
        }
    }
    for (ns, text) in files.iter().enumerate() {
        let team_dir = fleet.join(TEAMS[ns % TEAMS.len()]);
        std::fs::create_dir_all(&team_dir).unwrap();
        std::fs::write(
            team_dir.join(format!("ns-{ns:03}.yaml")),
            workload.apply(text),
        )
        .unwrap();
    }
    fleet
}
