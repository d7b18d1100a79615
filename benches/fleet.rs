//! Fleet-scale benchmark: generates a realistic fleet deterministically, then measures the
//! release binary — a cold build into an empty directory, a rebuild with nothing changed, and
//! `diff` between two nearby revisions — with wall time, CPU time and peak memory, next to a
//! floor: only serialising and writing the same output objects.
//!
//! cargo bench --bench fleet                      # 200×10 and 2000×50
//! cargo bench --bench fleet -- 10000x200         # any sizes, templates×clusters
//! cargo bench --bench fleet -- 2000x50 --cloneset  # the workloads as OpenKruise CloneSets,
//!                                                  # interpreted by Karmada's Lua scripts

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift64*), so every run builds the same fleet.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const REGIONS: &[&str] = &["eu-west", "eu-central", "us-east", "us-west", "ap-south"];
const ENVIRONMENTS: &[&str] = &["production", "staging"];
const TIERS: &[&str] = &["web", "data", "batch"];
const TEAMS: &[&str] = &[
    "shop", "payments", "search", "identity", "media", "ads", "ml", "platform",
];

/// The kind of the fleet's workloads: Deployments (Karmada's native interpreter) or OpenKruise
/// CloneSets (its built-in Lua interpretation), otherwise the same fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Workload {
    Deployment,
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

/// Writes `templates` templates, the policies and `clusters` clusters under `dir`.
/// `revision` perturbs a few templates, for `diff` between nearby revisions.
fn generate(
    dir: &Path,
    templates: usize,
    clusters: usize,
    revision: u64,
    workload: Workload,
) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    let fleet = dir.join("fleet");
    std::fs::create_dir_all(&fleet).unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let namespaces = (templates / 40).max(2);
    let mut inventory = String::new();
    for index in 0..clusters {
        let region = REGIONS[index % REGIONS.len()];
        let environment = ENVIRONMENTS[(index / REGIONS.len()) % 2];
        let tier = TIERS[index % TIERS.len()];
        writeln!(
            inventory,
            "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: {region}-{environment}-{index:03}\n  labels:\n    region: {region}\n    environment: {environment}\n    tier: {tier}\nspec:\n  syncMode: Push\n  provider: {}\n  region: {region}\n  zones: [{region}-a, {region}-b]\nstatus:\n  resourceSummary:\n    allocatable: {{cpu: \"64\", memory: 256Gi, pods: \"1100\"}}\n    allocated: {{cpu: \"{}\", memory: 64Gi, pods: \"{}\"}}",
            if index % 2 == 0 { "aws" } else { "gcp" },
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

/// Wall time, CPU time (user + system, of the child) and peak resident memory of one run.
struct Measure {
    wall: Duration,
    cpu: Duration,
    peak_kib: u64,
    code: i32,
}

/// Runs the release binary and measures that one process: wall time, and from `wait4` its own
/// CPU time and peak resident memory.
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which also reports its resource usage"
)]
fn run(args: &[&str]) -> Measure {
    let started = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_fedrender"))
        .args(args)
        .arg("--quiet")
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("fedrender runs");
    let mut status = 0;
    // SAFETY: wait4 fills the status and the struct it is given for our own child, which is
    // reaped here (the Child handle is not waited on again).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(reaped, child.id() as libc::pid_t, "wait4 reaps fedrender");
    let wall = started.elapsed();
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, (t.tv_usec as u32) * 1000);
    Measure {
        wall,
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
        peak_kib: usage.ru_maxrss as u64,
        code: if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            -1
        },
    }
}

impl Measure {
    /// `0.73 s (1.17 s CPU, 60 MiB)`
    fn cell(&self) -> String {
        format!(
            "{:.2} s ({:.2} s CPU, {} MiB)",
            self.wall.as_secs_f64(),
            self.cpu.as_secs_f64(),
            self.peak_kib / 1024
        )
    }
}

/// The floor: serialise and write the same output objects on every core, nothing else.
fn floor(rendered: &Path, scratch: &Path) -> Duration {
    use rayon::prelude::*;
    let mut objects = Vec::new();
    for entry in walkdir::WalkDir::new(rendered) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let documents = fedrender::yaml::split_documents(&text);
            let value = fedrender::yaml::parse_document(&documents[0], "x").unwrap();
            objects.push((
                entry.path().strip_prefix(rendered).unwrap().to_path_buf(),
                value,
            ));
        }
    }
    let _ = std::fs::remove_dir_all(scratch);
    let started = Instant::now();
    let mut directories: Vec<PathBuf> = objects
        .iter()
        .map(|(path, _)| scratch.join(path).parent().unwrap().to_path_buf())
        .collect();
    directories.dedup();
    for directory in directories {
        std::fs::create_dir_all(directory).unwrap();
    }
    objects.par_iter().for_each(|(path, value)| {
        std::fs::write(scratch.join(path), fedrender::yaml::to_yaml(value)).unwrap();
    });
    started.elapsed()
}

/// Waits (at most three minutes) until the disks have written and discarded nothing for three
/// seconds in a row. Deleting a large tree goes on costing the disk long after `rm` returns
/// (online discard), and would be billed to whatever is timed next.
fn settle_disk() {
    let _ = Command::new("sync").status();
    // Sectors written and discarded, and I/Os in flight, summed over the disks (Linux).
    let activity = || -> Option<(u64, u64)> {
        let stats = std::fs::read_to_string("/proc/diskstats").ok()?;
        let mut moved = 0;
        let mut in_flight = 0;
        for line in stats.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let number = |index: usize| fields.get(index).and_then(|f| f.parse::<u64>().ok());
            moved += number(9).unwrap_or(0) + number(16).unwrap_or(0);
            in_flight += number(11).unwrap_or(0);
        }
        Some((moved, in_flight))
    };
    let started = Instant::now();
    let mut quiet = 0;
    let mut last = activity();
    while quiet < 3 && started.elapsed() < Duration::from_secs(180) {
        std::thread::sleep(Duration::from_secs(1));
        let now = activity();
        let idle = match (last, now) {
            (Some((before, _)), Some((after, in_flight))) => before == after && in_flight == 0,
            _ => true,
        };
        quiet = if idle { quiet + 1 } else { 0 };
        last = now;
    }
}

/// The floor, measured in a child process (this benchmark run again with `--floor`): the
/// floor holds every object in memory, and a parent that large would leak into the peak
/// memory Linux reports for every later child (a spawned child inherits its parent's
/// high-water mark).
fn floor_in_child(rendered: &Path, scratch: &Path) -> Duration {
    let output = Command::new(std::env::current_exe().expect("the benchmark's own path"))
        .arg("--floor")
        .arg(rendered)
        .arg(scratch)
        .output()
        .expect("the floor runs");
    assert!(output.status.success(), "the floor failed: {output:?}");
    let seconds: f64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("the floor prints its seconds");
    Duration::from_secs_f64(seconds)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|arg| arg == "--floor") {
        let seconds = floor(Path::new(&args[at + 1]), Path::new(&args[at + 2]));
        println!("{}", seconds.as_secs_f64());
        return;
    }
    let sizes: Vec<(usize, usize)> = {
        let args: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| a.contains('x'))
            .collect();
        let args = if args.is_empty() {
            vec!["200x10".to_string(), "2000x50".to_string()]
        } else {
            args
        };
        args.iter()
            .map(|size| {
                let (t, c) = size.split_once('x').expect("sizes look like 2000x50");
                (t.parse().expect("templates"), c.parse().expect("clusters"))
            })
            .collect()
    };
    let workload = if args.iter().any(|arg| arg == "--cloneset") {
        Workload::CloneSet
    } else {
        Workload::Deployment
    };
    let root = std::env::temp_dir().join("fedrender-bench");
    println!(
        "| templates × clusters | objects | cold build | rebuild, nothing changed | diff of two revisions | floor (serialise + write) | cold / floor |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (templates, clusters) in sizes {
        let dir = root.join(format!("{templates}x{clusters}"));
        let fleet = generate(&dir, templates, clusters, 0, workload);
        let next = generate(&dir.join("next"), templates, clusters, 1, workload);
        let inventory = dir.join("clusters.yaml");
        let out = dir.join("rendered");
        let _ = std::fs::remove_dir_all(&out);
        let build = |out: &Path| {
            run(&[
                "build",
                fleet.to_str().unwrap(),
                "--clusters",
                inventory.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
        };
        // Each cold build writes into a directory never used before, once the disk has finished
        // with the deletion of earlier runs' trees. The median of three.
        let _ = std::fs::remove_dir_all(dir.join("cold"));
        let _ = std::fs::remove_dir_all(dir.join("floor"));
        settle_disk();
        let mut colds: Vec<Measure> = (0..3)
            .map(|run| build(&dir.join("cold").join(run.to_string())))
            .collect();
        colds.sort_by_key(|measure| measure.wall);
        let cold = colds.swap_remove(1);
        let _ = std::fs::remove_dir_all(&out);
        std::fs::rename(dir.join("cold").join("0"), &out).unwrap();
        assert_eq!(cold.code, 0, "cold build failed");
        let objects = walkdir::WalkDir::new(&out)
            .into_iter()
            .filter(|e| e.as_ref().unwrap().file_type().is_file())
            .count()
            - clusters;
        settle_disk();
        let mut rebuilds: Vec<Measure> = (0..3).map(|_| build(&out)).collect();
        rebuilds.sort_by_key(|measure| measure.wall);
        let rebuild = rebuilds.swap_remove(1);
        let diff = run(&[
            "diff",
            next.to_str().unwrap(),
            "--clusters",
            inventory.to_str().unwrap(),
            "--base",
            fleet.to_str().unwrap(),
            "--format",
            "stat",
        ]);
        settle_disk();
        let floor = floor_in_child(&out, &dir.join("floor"));
        assert!(
            diff.code == 0 || diff.code == 1,
            "diff failed with exit code {}",
            diff.code
        );
        println!(
            "| {templates} × {clusters} | {objects} | {} | {} | {} | {:.2} s | {:.1}× |",
            cold.cell(),
            rebuild.cell(),
            diff.cell(),
            floor.as_secs_f64(),
            cold.wall.as_secs_f64() / floor.as_secs_f64(),
        );
    }
}
