//! Fleet-scale benchmark: generates three fleets deterministically — the benchmark's own
//! (`synthetic`), one shaped as platform repositories are (`platform`, see
//! support/platform_fleet.rs) and one of rendered Helm charts as repositories commit them
//! (`charts`, see support/chart_fleet.rs) — then measures on each the
//! release binary — a cold build into an empty directory, a rebuild with nothing changed,
//! `diff` between two nearby revisions and the whole render on standard output — with wall
//! time, CPU time and peak memory, next to two floors measured in the same run: only
//! serialising and writing the same output objects, and `cp -r` of the rendered tree. Then the
//! same objects rendered by `fedrender build --stdout` and by `kubectl kustomize` per cluster
//! on a 1,000 × 20 fleet of each shape, where kubectl is installed, and the CPU time of the
//! stream with one thread for each rendered object.
//!
//! cargo bench --bench fleet                      # 200×10 and 2000×50
//! cargo bench --bench fleet -- 2000x50 10000x200 # any sizes, templates×clusters
//! cargo bench --bench fleet -- 2000x50 --cloneset  # the workloads as OpenKruise CloneSets,
//!                                                  # interpreted by Karmada's Lua scripts
//! cargo bench --bench fleet -- 2000x50 --platform  # only the platform fleet (--charts: the charts)
//! cargo bench --bench fleet -- --generate DIR 10000x200 [--platform|--charts]  # only write a fleet
//!                                                  # and the revision `diff` compares
//!
//! Cold builds run with schema checks and without (every schema lint allowed), interleaved, so
//! the cost of checking is measured side by side.
//!
//! cargo bench --bench fleet -- --cel 2000x50 1000  # the fleet with 1,000 Gates (custom
//!     # resources with CEL rules): cold builds with the CRD's rules and without them
//! cargo bench --bench fleet -- --memory 10000x200  # every command once on the three fleets:
//!     # wall, CPU and peak memory (the bound: 256 MiB at 10,000 × 200)
//! cargo bench --bench fleet -- --argocd 200x100  # an Argo CD fleet (support/argocd_fleet.rs)
//!     # of 200 cluster Secrets and 100 ApplicationSets: every command once, wall, CPU, peak
//!     # memory; `--generate DIR 200x100 --argocd` only writes it (and its next revision)
//! cargo bench --bench fleet -- --attacks  # the time and peak memory of each attack on the
//!     # schema and CEL checks (support/cel_attacks.rs)

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "support/fleet_generator.rs"]
mod fleet_generator;

#[path = "support/platform_fleet.rs"]
mod platform_fleet;

#[path = "support/chart_fleet.rs"]
mod chart_fleet;

#[path = "support/cel_attacks.rs"]
mod cel_attacks;

#[path = "support/argocd_fleet.rs"]
mod argocd_fleet;

use fleet_generator::{ENVIRONMENTS, REGIONS, Workload, generate};

/// The three fleets every run reports: the benchmark's own (`synthetic`, tuned over the
/// rounds), one shaped as platform repositories are (`platform`) and one of rendered Helm
/// charts (`charts`), written after the others were tuned and tuned for by nobody.
#[derive(Debug, Clone, Copy)]
enum Shape {
    Synthetic(Workload),
    Platform,
    Charts,
}

const EVERY_SHAPE: [Shape; 3] = [
    Shape::Synthetic(Workload::Deployment),
    Shape::Platform,
    Shape::Charts,
];

impl Shape {
    fn generate(self, dir: &Path, templates: usize, clusters: usize, revision: u64) -> PathBuf {
        match self {
            Shape::Synthetic(workload) => generate(dir, templates, clusters, revision, workload),
            Shape::Platform => {
                platform_fleet::generate_platform(dir, templates, clusters, revision)
            }
            Shape::Charts => chart_fleet::generate_charts(dir, templates, clusters, revision),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Shape::Synthetic(Workload::Deployment) => "synthetic",
            Shape::Synthetic(Workload::CloneSet) => "synthetic, CloneSets",
            Shape::Platform => "platform",
            Shape::Charts => "charts",
        }
    }
}

/// Wall time, CPU time (user + system, of the child) and peak resident memory of one run.
struct Measure {
    wall: Duration,
    cpu: Duration,
    peak_kib: u64,
    code: i32,
}

/// `fedrender build FLEET --clusters INVENTORY` with `rest`, measured.
fn build_fleet(fleet: &Path, inventory: &Path, rest: &[&str]) -> Measure {
    let mut args = vec![
        "build",
        fleet.to_str().unwrap(),
        "--clusters",
        inventory.to_str().unwrap(),
    ];
    args.extend_from_slice(rest);
    run(&args)
}

/// Runs the release binary and measures that one process: wall time, and from `wait4` its own
/// CPU time and peak resident memory.
fn run(args: &[&str]) -> Measure {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fedrender"));
    command.args(args).arg("--quiet");
    measure(command)
}

/// Runs any program (its output discarded) and measures it as [`run`] does.
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which also reports its resource usage"
)]
fn measure(mut command: Command) -> Measure {
    let started = Instant::now();
    let child = command
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the program runs");
    let mut status = 0;
    // SAFETY: wait4 fills the status and the struct it is given for our own child, which is
    // reaped here (the Child handle is not waited on again).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(reaped, child.id() as libc::pid_t, "wait4 reaps the child");
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

/// The median of `runs` measures, each taken by `take` with its run number, by wall time.
fn median(runs: usize, take: impl FnMut(usize) -> Measure) -> Measure {
    median_by(runs, |measure| measure.wall, take)
}

/// The median of `runs` measures by CPU time: what a figure of CPU time is taken from.
fn median_by_cpu(runs: usize, take: impl FnMut(usize) -> Measure) -> Measure {
    median_by(runs, |measure| measure.cpu, take)
}

fn median_by(
    runs: usize,
    key: impl Fn(&Measure) -> Duration,
    mut take: impl FnMut(usize) -> Measure,
) -> Measure {
    let mut measures: Vec<Measure> = (0..runs).map(&mut take).collect();
    measures.sort_by_key(|measure| key(measure));
    measures.swap_remove(runs / 2)
}

/// `cp -r` of a rendered tree into a directory never used before, once the disk is idle: the
/// floor a tree build is held to, measured in the same run.
fn copy_tree(rendered: &Path, into: &Path) -> Measure {
    let _ = std::fs::remove_dir_all(into);
    settle_disk();
    let mut command = Command::new("cp");
    command.arg("-r").arg(rendered).arg(into);
    let copied = measure(command);
    assert_eq!(copied.code, 0, "cp -r failed");
    let _ = std::fs::remove_dir_all(into);
    copied
}

/// Whether `kubectl` (with kustomize built in) runs here.
fn kubectl_available() -> bool {
    Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// The same bytes two ways, on a 1,000 × 20 fleet: `fedrender build --stdout` renders every
/// cluster from the templates; per-cluster kustomize overlays (here the rendered tree, whose
/// cluster directories are kustomizations listing their files) take `kubectl kustomize` once
/// per cluster, two at a time on two cores. Both print every object of every cluster.
fn kustomize_comparison(root: &Path, shape: Shape) -> Option<String> {
    if !kubectl_available() {
        return Some("kubectl is not installed: no kustomize comparison".to_string());
    }
    let (templates, clusters) = (1000, 20);
    let dir = root.join(format!("{}-{templates}x{clusters}", shape.name()));
    let fleet = shape.generate(&dir, templates, clusters, 0);
    let inventory = dir.join("clusters.yaml");
    // The tree: cold builds, each into a directory never used before; the first one's cluster
    // directories are the overlays kustomize renders.
    let out = dir.join("overlays");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(dir.join("trees"));
    let tree = median(3, |run_index| {
        let into = if run_index == 0 {
            out.clone()
        } else {
            dir.join("trees").join(run_index.to_string())
        };
        let built = build_fleet(&fleet, &inventory, &["--out", into.to_str().unwrap()]);
        assert_eq!(built.code, 0, "the overlays build failed");
        built
    });
    // The other trees go, and the disk settles: their writing back and discarding would
    // otherwise be billed to the streams timed next.
    let _ = std::fs::remove_dir_all(dir.join("trees"));
    settle_disk();
    let stream_args = [
        "build",
        fleet.to_str()?,
        "--clusters",
        inventory.to_str()?,
        "--stdout",
    ];
    let streamed = median(5, |_| run(&stream_args));
    // The CPU time of a run this short moves by a scheduler tick: the median of eleven, by the
    // CPU time it reports.
    let one_thread = median_by_cpu(11, |_| {
        let mut args = stream_args.to_vec();
        args.extend(["--jobs", "1"]);
        run(&args)
    });
    let mut overlays: Vec<PathBuf> = std::fs::read_dir(&out)
        .ok()?
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("kustomization.yaml").exists())
        .collect();
    overlays.sort();
    assert_eq!(overlays.len(), clusters, "one overlay per cluster");
    // Both print the same objects: count the documents.
    let stream = Command::new(env!("CARGO_BIN_EXE_fedrender"))
        .args(stream_args)
        .arg("--quiet")
        .output()
        .ok()?;
    let documents = String::from_utf8_lossy(&stream.stdout)
        .matches("---\n# cluster: ")
        .count();
    let kustomize_all = || -> (Duration, usize) {
        let started = Instant::now();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let printed = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    loop {
                        let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(overlay) = overlays.get(at) else {
                            break;
                        };
                        let output = Command::new("kubectl")
                            .arg("kustomize")
                            .arg(overlay)
                            .output()
                            .expect("kubectl runs");
                        assert!(output.status.success(), "kubectl kustomize {overlay:?}");
                        let text = String::from_utf8_lossy(&output.stdout);
                        let objects = text.matches("\n---\n").count() + 1;
                        printed.fetch_add(objects, std::sync::atomic::Ordering::Relaxed);
                    }
                });
            }
        });
        (started.elapsed(), printed.into_inner())
    };
    let mut runs: Vec<(Duration, usize)> = (0..3).map(|_| kustomize_all()).collect();
    runs.sort();
    let (kustomize, kustomized) = runs[1];
    assert_eq!(
        kustomized, documents,
        "kustomize and fedrender print the same objects"
    );
    let _ = std::fs::remove_dir_all(&dir);
    Some(format!(
        "{} fleet, {templates} × {clusters}, {documents} objects: `fedrender build --stdout` {} against `kubectl kustomize` on each cluster's overlay, two at a time, {:.2} s: {:.0}× faster; the tree (a cold `build --out`) {}: {:.0}× faster; with one thread (`--jobs 1`) {}, {:.1} µs of CPU an object",
        shape.name(),
        streamed.cell(),
        kustomize.as_secs_f64(),
        kustomize.as_secs_f64() / streamed.wall.as_secs_f64(),
        tree.cell(),
        kustomize.as_secs_f64() / tree.wall.as_secs_f64(),
        one_thread.cell(),
        one_thread.cpu.as_secs_f64() * 1e6 / documents as f64,
    ))
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
            let documents = fedrender_engine::yaml::split_documents(&text);
            let value = fedrender_engine::yaml::parse_document(&documents[0], "x").unwrap();
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
        std::fs::write(scratch.join(path), fedrender_engine::yaml::to_yaml(value)).unwrap();
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

/// The cost of CEL rules: the fleet with `gates` Gates, built cold with the Gate CRD's rules
/// and with the same CRD without them, interleaved, the median of five each.
fn cel_cost(templates: usize, clusters: usize, gates: usize) {
    let root = std::env::temp_dir().join("fedrender-bench-cel");
    let mut fleets = Vec::new();
    for rules in [true, false] {
        let dir = root.join(if rules { "rules" } else { "no-rules" });
        let fleet = generate(&dir, templates, clusters, 0, Workload::Deployment);
        add_gates(&fleet, gates, rules);
        fleets.push((dir, fleet));
    }
    let mut measures: [Vec<Measure>; 2] = [Vec::new(), Vec::new()];
    for run_index in 0..5 {
        for (which, (dir, fleet)) in fleets.iter().enumerate() {
            let out = dir.join("cold").join(run_index.to_string());
            settle_disk();
            let measure = run(&[
                "build",
                fleet.to_str().unwrap(),
                "--clusters",
                dir.join("clusters.yaml").to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--allow",
                "unchecked-kind",
            ]);
            assert_eq!(measure.code, 0, "cold build failed");
            measures[which].push(measure);
        }
    }
    let [mut with_rules, mut without] = measures;
    with_rules.sort_by_key(|measure| measure.wall);
    without.sort_by_key(|measure| measure.wall);
    let (with_rules, without) = (&with_rules[2], &without[2]);
    println!(
        "| templates × clusters + Gates | cold build, CEL rules | cold build, same CRD without rules | with / without |"
    );
    println!("|---|---|---|---|");
    println!(
        "| {templates} × {clusters} + {gates} | {} | {} | {:.2}× |",
        with_rules.cell(),
        without.cell(),
        with_rules.wall.as_secs_f64() / without.wall.as_secs_f64()
    );
}

/// The two revisions differ by image tags alone (and a ConfigMap's text): a change that breaks
/// or loses nothing, so the danger lints of `diff` must find nothing in it.
fn assert_no_danger_finding(next: &Path, inventory: &Path, fleet: &Path) {
    let output = Command::new(env!("CARGO_BIN_EXE_fedrender"))
        .args(["diff", next.to_str().unwrap(), "--clusters"])
        .arg(inventory)
        .arg("--base")
        .arg(fleet)
        .args(["--format", "json", "--quiet"])
        .output()
        .expect("the program runs");
    let report: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("diff --format json prints JSON");
    assert_eq!(
        report["findings"],
        serde_json::json!([]),
        "an image-only change raised danger findings"
    );
    assert!(report["summary"]["changed"].as_u64() > Some(0), "{report}");
}

/// `--memory`: every command once on the fleet of `shape` at `templates` × `clusters`, each
/// with its wall time, CPU time and peak memory, the bound every command is held to being
/// 256 MiB at 10,000 × 200.
fn every_command(root: &Path, shape: Shape, templates: usize, clusters: usize) {
    let dir = root.join(format!("{}-{templates}x{clusters}", shape.name()));
    let fleet = shape.generate(&dir, templates, clusters, 0);
    let next = shape.generate(&dir.join("next"), templates, clusters, 1);
    let inventory = dir.join("clusters.yaml");
    let out = dir.join("memory-tree");
    let _ = std::fs::remove_dir_all(&out);
    settle_disk();
    let (fleet, next, inventory, out) = (
        fleet.to_str().unwrap(),
        next.to_str().unwrap(),
        inventory.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    let commands: Vec<(&str, Vec<&str>)> = vec![
        ("build --out (cold)", vec!["build", fleet, "--out", out]),
        ("build --out (rebuild)", vec!["build", fleet, "--out", out]),
        ("build --stdout", vec!["build", fleet, "--stdout"]),
        ("validate", vec!["validate", fleet]),
        (
            "diff --base --format stat",
            vec!["diff", next, "--base", fleet, "--format", "stat"],
        ),
        (
            "diff --base --format json",
            vec!["diff", next, "--base", fleet, "--format", "json"],
        ),
        (
            "diff --against TREE",
            vec!["diff", next, "--against", out, "--format", "stat"],
        ),
        ("plan", vec!["plan", fleet]),
        (
            "plan --format table",
            vec!["plan", fleet, "--format", "table"],
        ),
        (
            "plan --format markdown",
            vec!["plan", fleet, "--format", "markdown"],
        ),
        (
            "plan --format json",
            vec!["plan", fleet, "--format", "json"],
        ),
    ];
    println!(
        "\n{} fleet, {templates} × {clusters}\n\n| command | exit | wall | CPU | peak memory |\n|---|---|---|---|---|",
        shape.name()
    );
    for (name, mut args) in commands {
        args.extend(["--clusters", inventory]);
        let taken = run(&args);
        println!(
            "| `{name}` | {} | {:.2} s | {:.2} s | {} MiB |",
            taken.code,
            taken.wall.as_secs_f64(),
            taken.cpu.as_secs_f64(),
            taken.peak_kib / 1024
        );
    }
    let _ = std::fs::remove_dir_all(out);
}

/// `--argocd`: the Argo CD fleet of `clusters` cluster Secrets and `sets` ApplicationSets
/// (support/argocd_fleet.rs), every command once with its wall time, CPU time and peak memory;
/// `diff --base` against the revision that changes one ApplicationSet's selector.
fn argocd_commands(clusters: usize, sets: usize) {
    let dir = std::env::temp_dir()
        .join("fedrender-bench")
        .join(format!("argocd-{clusters}x{sets}"));
    let fleet = argocd_fleet::generate_argocd(&dir, clusters, sets, 0);
    let next = argocd_fleet::generate_argocd(&dir.join("next"), clusters, sets, 1);
    let inventory = dir.join("clusters.yaml");
    let out = dir.join("tree");
    let (fleet, next, inventory, out) = (
        fleet.to_str().unwrap(),
        next.to_str().unwrap(),
        inventory.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    let stream = Command::new(env!("CARGO_BIN_EXE_fedrender"))
        .args([
            "build",
            fleet,
            "--clusters",
            inventory,
            "--stdout",
            "--quiet",
        ])
        .output()
        .expect("the release binary runs");
    assert!(
        stream.status.success(),
        "the Argo CD fleet renders: {}",
        String::from_utf8_lossy(&stream.stderr)
    );
    let objects = String::from_utf8_lossy(&stream.stdout)
        .matches("---\n# cluster: ")
        .count();
    let _ = std::fs::remove_dir_all(out);
    settle_disk();
    let commands: Vec<(&str, Vec<&str>)> = vec![
        ("build --stdout", vec!["build", fleet, "--stdout"]),
        (
            "build --stdout --jobs 1",
            vec!["build", fleet, "--stdout", "--jobs", "1"],
        ),
        ("build --out (cold)", vec!["build", fleet, "--out", out]),
        ("build --out (rebuild)", vec!["build", fleet, "--out", out]),
        ("validate", vec!["validate", fleet]),
        (
            "plan --format json",
            vec!["plan", fleet, "--format", "json"],
        ),
        (
            "diff --base --format stat",
            vec!["diff", next, "--base", fleet, "--format", "stat"],
        ),
    ];
    println!(
        "\nArgo CD fleet, {clusters} clusters × {sets} ApplicationSets: {objects} objects\n\n| command | exit | wall | CPU | peak memory |\n|---|---|---|---|---|"
    );
    for (name, mut args) in commands {
        args.extend(["--clusters", inventory]);
        let taken = run(&args);
        println!(
            "| `{name}` | {} | {:.2} s | {:.2} s | {} MiB |",
            taken.code,
            taken.wall.as_secs_f64(),
            taken.cpu.as_secs_f64(),
            taken.peak_kib / 1024
        );
    }
    let _ = std::fs::remove_dir_all(out);
}

/// `--attacks`: the time and peak memory of each attack on the schema and CEL checks
/// (`support/cel_attacks.rs`), the median of three runs of the release binary, as a table.
fn attacks() {
    let root = std::env::temp_dir().join("fedrender-bench").join("attacks");
    println!("| attack | before it was bounded | exit | wall | CPU | peak memory |");
    println!("|---|---|---|---|---|---|");
    for attack in cel_attacks::all() {
        let dir = root.join(attack.name);
        let _ = std::fs::remove_dir_all(&dir);
        attack.write(&dir);
        let taken = median(3, |_| {
            let mut command = Command::new(env!("CARGO_BIN_EXE_fedrender"));
            command
                .args(&attack.args)
                .current_dir(&dir)
                .stderr(std::process::Stdio::null());
            measure(command)
        });
        println!(
            "| {} | {} | {} | {:.2} s | {:.2} s | {} MiB |",
            attack.name,
            attack.unbounded,
            taken.code,
            taken.wall.as_secs_f64(),
            taken.cpu.as_secs_f64(),
            taken.peak_kib / 1024
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|arg| arg == "--attacks") {
        attacks();
        return;
    }
    if let Some(at) = args.iter().position(|arg| arg == "--floor") {
        let seconds = floor(Path::new(&args[at + 1]), Path::new(&args[at + 2]));
        println!("{}", seconds.as_secs_f64());
        return;
    }
    if let Some(at) = args.iter().position(|arg| arg == "--memory") {
        let (templates, clusters) = args[at + 1].split_once('x').expect("a size: 10000x200");
        let root = std::env::temp_dir().join("fedrender-bench");
        for shape in EVERY_SHAPE {
            every_command(
                &root,
                shape,
                templates.parse().expect("templates"),
                clusters.parse().expect("clusters"),
            );
        }
        return;
    }
    if let Some(at) = args.iter().position(|arg| arg == "--argocd")
        && !args.iter().any(|arg| arg == "--generate")
    {
        let (clusters, sets) = args[at + 1].split_once('x').expect("a size: 200x100");
        argocd_commands(
            clusters.parse().expect("clusters"),
            sets.parse().expect("ApplicationSets"),
        );
        return;
    }
    if let Some(at) = args.iter().position(|arg| arg == "--cel") {
        let (templates, clusters) = args[at + 1].split_once('x').expect("a size: 2000x50");
        cel_cost(
            templates.parse().expect("templates"),
            clusters.parse().expect("clusters"),
            args[at + 2].parse().expect("a number of Gates"),
        );
        return;
    }
    if let Some(at) = args.iter().position(|arg| arg == "--generate") {
        let (templates, clusters) = args[at + 2].split_once('x').expect("a size: 2000x50");
        if args.iter().any(|arg| arg == "--argocd") {
            // Here the size is clusters × ApplicationSets.
            let (clusters, sets) = (
                templates.parse().expect("clusters"),
                clusters.parse().expect("ApplicationSets"),
            );
            let dir = Path::new(&args[at + 1]);
            let fleet = argocd_fleet::generate_argocd(dir, clusters, sets, 0);
            println!("{}", fleet.display());
            let next = argocd_fleet::generate_argocd(&dir.join("next"), clusters, sets, 1);
            println!("{}", next.display());
            return;
        }
        let shape = if args.iter().any(|arg| arg == "--platform") {
            Shape::Platform
        } else if args.iter().any(|arg| arg == "--charts") {
            Shape::Charts
        } else {
            Shape::Synthetic(Workload::Deployment)
        };
        let (templates, clusters) = (
            templates.parse().expect("templates"),
            clusters.parse().expect("clusters"),
        );
        // The fleet and the revision the benchmark's `diff` compares it with.
        let dir = Path::new(&args[at + 1]);
        println!("{}", shape.generate(dir, templates, clusters, 0).display());
        let next = shape.generate(&dir.join("next"), templates, clusters, 1);
        println!("{}", next.display());
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
    let shapes = if args.iter().any(|arg| arg == "--cloneset") {
        vec![Shape::Synthetic(Workload::CloneSet)]
    } else if args.iter().any(|arg| arg == "--platform") {
        vec![Shape::Platform]
    } else if args.iter().any(|arg| arg == "--charts") {
        vec![Shape::Charts]
    } else {
        EVERY_SHAPE.to_vec()
    };
    let root = std::env::temp_dir().join("fedrender-bench");
    println!(
        "| fleet | templates × clusters | objects | cold build | cold build, no schema checks | checked / unchecked | rebuild, nothing changed | diff of two revisions | floor (serialise + write) | cold / floor |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut floors = Vec::new();
    let mut scratch = Vec::new();
    for (shape, (templates, clusters)) in shapes
        .iter()
        .flat_map(|&shape| sizes.iter().map(move |&size| (shape, size)))
    {
        // A million files take a minute to write on this disk: one run of each is enough there.
        let runs = if templates * clusters > 200_000 { 1 } else { 3 };
        let dir = root.join(format!("{}-{templates}x{clusters}", shape.name()));
        let fleet = shape.generate(&dir, templates, clusters, 0);
        let next = shape.generate(&dir.join("next"), templates, clusters, 1);
        let inventory = dir.join("clusters.yaml");
        let out = dir.join("rendered");
        let _ = std::fs::remove_dir_all(&out);
        let build_with = |out: &Path, extra: &[&str]| {
            let mut args = vec!["--out", out.to_str().unwrap()];
            args.extend_from_slice(extra);
            build_fleet(&fleet, &inventory, &args)
        };
        let build = |out: &Path| build_with(out, &[]);
        let unchecked: Vec<&str> = fedrender_engine::check::LINTS
            .iter()
            .flat_map(|lint| ["--allow", lint.name()])
            .collect();
        // Each cold build writes into a directory never used before, once the disk has finished
        // with the deletion of earlier runs' trees. The median of three.
        let _ = std::fs::remove_dir_all(dir.join("cold"));
        let _ = std::fs::remove_dir_all(dir.join("floor"));
        settle_disk();
        let mut colds = Vec::new();
        let mut colds_unchecked = Vec::new();
        for run in 0..runs {
            colds.push(build(&dir.join("cold").join(run.to_string())));
            let unchecked_out = dir.join("cold-unchecked").join(run.to_string());
            colds_unchecked.push(build_with(&unchecked_out, &unchecked));
        }
        let _ = std::fs::remove_dir_all(dir.join("cold-unchecked"));
        colds.sort_by_key(|measure| measure.wall);
        colds_unchecked.sort_by_key(|measure| measure.wall);
        let cold = colds.swap_remove(runs / 2);
        let cold_unchecked = colds_unchecked.swap_remove(runs / 2);
        let _ = std::fs::remove_dir_all(&out);
        std::fs::rename(dir.join("cold").join("0"), &out).unwrap();
        assert_eq!(cold.code, 0, "cold build failed");
        let objects = walkdir::WalkDir::new(&out)
            .into_iter()
            .filter(|e| e.as_ref().unwrap().file_type().is_file())
            .count()
            - clusters;
        settle_disk();
        let rebuild = median(3, |_| build(&out));
        let stream = median(3, |_| build_fleet(&fleet, &inventory, &["--stdout"]));
        assert_eq!(stream.code, 0, "--stdout failed");
        let copy = median(runs, |_| copy_tree(&out, &dir.join("copy")));
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
        assert!(
            diff.code == 0 || diff.code == 1,
            "diff failed with exit code {}",
            diff.code
        );
        assert_no_danger_finding(&next, &inventory, &fleet);
        settle_disk();
        let floor = floor_in_child(&out, &dir.join("floor"));
        println!(
            "| {} | {templates} × {clusters} | {objects} | {} | {} | {:.2}× | {} | {} | {:.2} s | {:.1}× |",
            shape.name(),
            cold.cell(),
            cold_unchecked.cell(),
            cold.wall.as_secs_f64() / cold_unchecked.wall.as_secs_f64(),
            rebuild.cell(),
            diff.cell(),
            floor.as_secs_f64(),
            cold.wall.as_secs_f64() / floor.as_secs_f64(),
        );
        // Two fleets, five trees and their copies: 8.8 GB at 10,000 × 200, given back at once.
        scratch.push(format!(
            "{templates} × {clusters}: {:.1} GB of scratch space under {}, removed",
            bytes_under(&dir) as f64 / 1e9,
            root.display()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let ratio = |measure: &Measure| measure.wall.as_secs_f64() / copy.wall.as_secs_f64();
        floors.push(format!(
            "| {} | {templates} × {clusters} | {objects} | {} | {} | {:.2}× | {} | {:.2}× | {} |",
            shape.name(),
            copy.cell(),
            cold.cell(),
            ratio(&cold),
            rebuild.cell(),
            ratio(&rebuild),
            stream.cell(),
        ));
    }
    println!();
    println!(
        "| fleet | templates × clusters | objects | `cp -r` of the tree | cold build | cold / `cp -r` | rebuild, nothing changed | rebuild / `cp -r` | `--stdout` |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for row in floors {
        println!("{row}");
    }
    println!();
    for &shape in &shapes {
        if let Some(line) = kustomize_comparison(&root, shape) {
            println!("{line}");
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    for line in scratch {
        println!("{line}");
    }
}

/// The bytes of every file under `dir`.
fn bytes_under(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|entry| entry.metadata().ok())
        .filter(|metadata| metadata.is_file())
        .map(|metadata| metadata.len())
        .sum()
}

/// Adds to `fleet` the Gate CRD of the schema-cel-rules scenario (CEL rules, patterns, list
/// types, defaults) — or, without `rules`, the same CRD with its `x-kubernetes-validations`
/// left out — and `count` Gates placed on every cluster, with a ClusterOverridePolicy per
/// region giving each region's Gates their own backend timeout (so each Gate is checked once
/// per region, as distinct objects are).
pub fn add_gates(fleet: &Path, count: usize, rules: bool) {
    let crd = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/schema-cel-rules/input/crd.yaml"),
    )
    .unwrap();
    // The scenario's CRD file also places its Gates on its own two clusters: only the CRD is
    // taken.
    let crd = crd.split("\n---\n").next().unwrap().to_string();
    // The fleet's clusters run Kubernetes 1.31 to 1.33, and an API server compiles a new rule at
    // the version before its own: the format library (1.31 there) is refused on 1.31, so the
    // labels' rule checks the qualified name's pattern itself.
    let crd = crd.replace(
        "self.all(key, !format.qualifiedName().validate(key).hasValue())",
        "self.all(key, key.matches('^([a-z0-9.-]+/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$'))",
    );
    let crd = if rules { crd } else { without_rules(&crd) };
    std::fs::write(fleet.join("gate-crd.yaml"), crd).unwrap();
    let mut gates = String::new();
    for index in 0..count {
        let port = 1000 + index % 60_000;
        writeln!(gates, "---\napiVersion: example.io/v1\nkind: Gate\nmetadata:\n  name: gate-{index:05}\n  namespace: default\nspec:\n  gatewayClassName: shared\n  addresses:\n  - value: 10.0.{}.{}\n  - type: Hostname\n    value: gate-{index}.example.com\n  listeners:\n  - name: http\n    port: {port}\n    protocol: HTTP\n  - name: https\n    port: 443\n    hostname: gate-{index}.example.com\n    protocol: HTTPS\n    tls:\n      certificateRefs: [gate-{index}-cert]\n  - name: admin\n    port: 8443\n    protocol: HTTPS\n    tls:\n      mode: Passthrough\n  timeouts:\n    request: 10s\n    backendRequest: 5s\n  tags: [edge, public, team-{}]\n  labels:\n    example.com/tier: gold\n    app: gate-{index}\n  endpoint: https://gate-{index}.example.com/health\n  sourceRange: 10.{}.0.0/16\n  memory: {}Mi",
            index / 250 % 250, index % 250 + 1, index % 7, index % 250, 64 + index % 512).unwrap();
    }
    for (index, region) in REGIONS.iter().enumerate() {
        writeln!(gates, "---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata:\n  name: gate-timeouts-{region}\nspec:\n  resourceSelectors:\n  - apiVersion: example.io/v1\n    kind: Gate\n  overrideRules:\n  - targetCluster:\n      labelSelector:\n        matchLabels: {{region: {region}}}\n    overriders:\n      plaintext:\n      - path: /spec/timeouts/backendRequest\n        operator: replace\n        value: {}s", index + 1).unwrap();
    }
    writeln!(gates, "---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n  name: gates\nspec:\n  resourceSelectors:\n  - apiVersion: example.io/v1\n    kind: Gate\n  placement:\n    clusterAffinity:\n      labelSelector:\n        matchExpressions:\n        - {{key: environment, operator: In, values: [{}]}}", ENVIRONMENTS.join(", ")).unwrap();
    std::fs::write(fleet.join("gates.yaml"), gates).unwrap();
}

/// The CRD's text without its `x-kubernetes-validations` blocks: each such key, and the lines
/// under it (deeper, or its list's items at its own indentation).
fn without_rules(crd: &str) -> String {
    let mut kept = String::new();
    let mut dropping: Option<usize> = None;
    for line in crd.lines() {
        let indent = line.len() - line.trim_start().len();
        if let Some(key_indent) = dropping {
            if indent > key_indent || (indent == key_indent && line.trim_start().starts_with("- "))
            {
                continue;
            }
            dropping = None;
        }
        if line.trim_start().starts_with("x-kubernetes-validations:") {
            dropping = Some(indent);
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    kept
}
