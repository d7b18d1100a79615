//! An Argo CD fleet shaped as real ones are, generated deterministically: cluster Secrets with
//! `env`, `region` and `tier` labels (and a `team` label on some), and ApplicationSets mixing
//! what teams write — clusters generators with `matchLabels` or `matchExpressions` and
//! `values`, a matrix of git directories × clusters, a matrix of git files (each app's
//! `config.json` or `config.yaml`) × clusters, list generators; fasttemplate and `goTemplate`
//! with sprig (`lower`, `default`, `printf`, `toYaml` in a label) — over one checkout of apps,
//! each a directory of 3–6 manifests (a Deployment with requests, a Service, a ConfigMap, an
//! HPA, a ServiceAccount, a PodDisruptionBudget).
//!
//! Every ApplicationSet deploys into namespaces of its own, so that no two Applications write
//! one object to one cluster (which is an error, `shared-resource`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::fleet_generator::{Rng, fresh_fleet_dir};

const ENVS: &[&str] = &["prod", "staging", "dev"];
const REGIONS: &[&str] = &[
    "eu-west-1",
    "eu-central-1",
    "us-east-1",
    "us-west-2",
    "ap-south-1",
];
const TIERS: &[&str] = &["web", "data", "batch"];
const TEAMS: &[&str] = &[
    "shop", "payments", "search", "identity", "media", "ads", "ml", "platform", "risk", "growth",
];
const REPO: &str = "https://github.com/example/fleet-apps.git";

/// The apps of the checkout: one per ApplicationSet, at least ten, ten per team.
fn app_count(application_sets: usize) -> usize {
    application_sets.max(TEAMS.len())
}

/// The team and name of app `index`.
fn app(index: usize) -> (&'static str, String) {
    (TEAMS[index % TEAMS.len()], format!("svc-{index:03}"))
}

/// Writes the fleet under `dir`: `dir/clusters.yaml` (the inventory) and `dir/fleet` (the
/// Config, the ApplicationSets, AppProjects and the checkout `repo/`). `revision` 1 changes the
/// first ApplicationSet's selector, for `diff --base` between the two.
pub fn generate_argocd(
    dir: &Path,
    clusters: usize,
    application_sets: usize,
    revision: u64,
) -> PathBuf {
    let fleet = fresh_fleet_dir(dir);
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    // The inventory: cluster Secrets as `kubectl get secrets -l ...secret-type=cluster` prints
    // them. A third production, a third staging, a third dev; regions and tiers interleaved.
    let mut inventory = String::new();
    let mut cluster_names = Vec::new();
    for index in 0..clusters {
        let env = ENVS[index % ENVS.len()];
        let region = REGIONS[(index / ENVS.len()) % REGIONS.len()];
        let tier = TIERS[(index / 7) % TIERS.len()];
        let name = format!("{env}-{region}-{index:03}");
        let team = match index % 4 {
            0 => format!("\n    team: {}", TEAMS[index % TEAMS.len()]),
            _ => String::new(),
        };
        writeln!(
            inventory,
            "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: cluster-{name}\n  namespace: argocd\n  labels:\n    argocd.argoproj.io/secret-type: cluster\n    env: {env}\n    region: {region}\n    tier: {tier}{team}\n  annotations:\n    example.com/owner: sre-{region}\ntype: Opaque\nstringData:\n  name: {name}\n  server: https://{name}.k8s.example.com\n  config: '{{\"bearerToken\": \"not-a-token\", \"tlsClientConfig\": {{\"insecure\": false}}}}'"
        )
        .unwrap();
        cluster_names.push(name);
    }
    std::fs::write(dir.join("clusters.yaml"), inventory).unwrap();
    std::fs::write(
        fleet.join("fedrender.yaml"),
        format!("apiVersion: fedrender.io/v1alpha1\nkind: Config\nmetadata:\n  name: fleet\nspec:\n  argocd:\n    repositories:\n      - url: {REPO}\n        path: repo\n"),
    )
    .unwrap();
    let mut projects = String::new();
    for team in TEAMS {
        writeln!(projects, "---\napiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata:\n  name: {team}\n  namespace: argocd\nspec:\n  description: the {team} team's services\n  sourceRepos:\n    - https://github.com/example/*\n  destinations:\n    - server: '*'\n      namespace: '{team}-*'").unwrap();
    }
    std::fs::write(fleet.join("projects.yaml"), projects).unwrap();
    // The checkout: apps/TEAM/APP/*.yaml, and config/TEAM/APP/config.{json,yaml} that the git
    // files generators read.
    let repo = fleet.join("repo");
    for index in 0..app_count(application_sets) {
        let (team, name) = app(index);
        let app_dir = repo.join("apps").join(team).join(&name);
        std::fs::create_dir_all(&app_dir).unwrap();
        write_app(&app_dir, team, &name, index, &mut rng);
        let config_dir = repo.join("config").join(team).join(&name);
        std::fs::create_dir_all(&config_dir).unwrap();
        let replicas = 2 + rng.below(4);
        let tier = TIERS[index % TIERS.len()];
        if index.is_multiple_of(2) {
            std::fs::write(
                config_dir.join("config.json"),
                format!("{{\n  \"app\": {{\"name\": \"{name}\", \"tier\": \"{tier}\", \"replicas\": {replicas}}},\n  \"owner\": \"{team}@example.com\",\n  \"tier\": \"{tier}\"\n}}\n"),
            )
            .unwrap();
        } else {
            std::fs::write(
                config_dir.join("config.yaml"),
                format!("app:\n  name: {name}\n  tier: {tier}\n  replicas: {replicas}\nowner: {team}@example.com\ntier: {tier}\n"),
            )
            .unwrap();
        }
    }
    std::fs::write(
        repo.join("README.md"),
        "# fleet-apps\n\nOne directory per service under apps/TEAM/.\n",
    )
    .unwrap();
    // The ApplicationSets, one file per team as teams keep them.
    let mut files: Vec<String> = vec![String::new(); TEAMS.len()];
    for index in 0..application_sets {
        let (team, name) = app(index);
        let text = &mut files[index % TEAMS.len()];
        text.push_str(&application_set(
            index,
            team,
            &name,
            &cluster_names,
            revision,
            &mut rng,
        ));
    }
    let sets = fleet.join("applicationsets");
    std::fs::create_dir_all(&sets).unwrap();
    for (team, text) in TEAMS.iter().zip(&files) {
        if !text.is_empty() {
            std::fs::write(sets.join(format!("{team}.yaml")), text).unwrap();
        }
    }
    fleet
}

/// App `name`'s manifests: a Deployment with requests, a Service and a ConfigMap always; an
/// HPA, a ServiceAccount and a PodDisruptionBudget on some (3–6 files). None names a namespace:
/// each Application's destination gives it.
fn write_app(dir: &Path, team: &str, name: &str, index: usize, rng: &mut Rng) {
    let cpu = 50 + rng.below(450);
    let memory = 64 + rng.below(960);
    let port = 8080 + (index % 10);
    std::fs::write(
        dir.join("deployment.yaml"),
        format!("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  labels:\n    app.kubernetes.io/name: {name}\n    app.kubernetes.io/part-of: {team}\n  annotations:\n    argocd.argoproj.io/sync-wave: \"1\"\nspec:\n  replicas: {}\n  revisionHistoryLimit: 5\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: {name}\n  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: {name}\n        app.kubernetes.io/part-of: {team}\n    spec:\n      containers:\n        - name: {name}\n          image: registry.example.com/{team}/{name}:1.{}.0\n          ports:\n            - name: http\n              containerPort: {port}\n          envFrom:\n            - configMapRef:\n                name: {name}-config\n          resources:\n            requests:\n              cpu: {cpu}m\n              memory: {memory}Mi\n            limits:\n              memory: {}Mi\n          readinessProbe:\n            httpGet:\n              path: /healthz\n              port: http\n          securityContext:\n            runAsNonRoot: true\n            readOnlyRootFilesystem: true\n",
            2 + rng.below(4),
            rng.below(30),
            memory * 2,
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("service.yaml"),
        format!("apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n  labels:\n    app.kubernetes.io/name: {name}\nspec:\n  selector:\n    app.kubernetes.io/name: {name}\n  ports:\n    - name: http\n      port: 80\n      targetPort: http\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("configmap.yaml"),
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}-config\ndata:\n  LOG_LEVEL: info\n  PORT: \"{port}\"\n  application.yaml: |\n    server:\n      port: {port}\n    team: {team}\n"),
    )
    .unwrap();
    if index % 4 != 3 {
        std::fs::write(
            dir.join("hpa.yaml"),
            format!("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: {name}\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: {name}\n  minReplicas: 2\n  maxReplicas: {}\n  metrics:\n    - type: Resource\n      resource:\n        name: cpu\n        target:\n          type: Utilization\n          averageUtilization: 70\n", 6 + rng.below(20)),
        )
        .unwrap();
    }
    if index.is_multiple_of(3) {
        std::fs::write(
            dir.join("serviceaccount.yaml"),
            format!("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {name}\n"),
        )
        .unwrap();
    }
    if index.is_multiple_of(5) {
        std::fs::write(
            dir.join("pdb.json"),
            format!("{{\"apiVersion\": \"policy/v1\", \"kind\": \"PodDisruptionBudget\", \"metadata\": {{\"name\": \"{name}\"}}, \"spec\": {{\"minAvailable\": 1, \"selector\": {{\"matchLabels\": {{\"app.kubernetes.io/name\": \"{name}\"}}}}}}}}\n"),
        )
        .unwrap();
    }
}

/// ApplicationSet `index`, of one of five shapes by `index % 5`.
fn application_set(
    index: usize,
    team: &str,
    app: &str,
    clusters: &[String],
    revision: u64,
    rng: &mut Rng,
) -> String {
    let set = format!("{app}-set");
    let head = |go: bool| {
        let go = match go {
            true => "  goTemplate: true\n  goTemplateOptions: [\"missingkey=error\"]\n",
            false => "",
        };
        format!(
            "---\napiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: {set}\n  namespace: argocd\nspec:\n{go}  generators:\n"
        )
    };
    let sync = "      syncPolicy:\n        automated:\n          prune: true\n          selfHeal: true\n        syncOptions:\n          - CreateNamespace=true\n";
    match index % 5 {
        // Every production cluster (the revision narrows it to two regions), fasttemplate.
        0 => {
            let selector = match revision {
                0 => "            matchLabels:\n              env: prod\n".to_string(),
                _ => "            matchLabels:\n              env: prod\n            matchExpressions:\n              - key: region\n                operator: In\n                values: [eu-west-1, us-east-1]\n".to_string(),
            };
            format!(
                "{}    - clusters:\n          selector:\n{selector}          values:\n            namespace: {team}-{app}\n            revision: main\n  template:\n    metadata:\n      name: '{app}-{{{{name}}}}'\n      labels:\n        team: {team}\n        env: '{{{{metadata.labels.env}}}}'\n    spec:\n      project: {team}\n      source:\n        repoURL: {REPO}\n        targetRevision: '{{{{values.revision}}}}'\n        path: apps/{team}/{app}\n      destination:\n        server: '{{{{server}}}}'\n        namespace: '{{{{values.namespace}}}}'\n{sync}",
                head(false)
            )
        }
        // Some regions but not the batch tier, Go templates with sprig.
        1 => format!(
            "{}    - clusters:\n          selector:\n            matchExpressions:\n              - key: region\n                operator: In\n                values: [{}, {}, {}]\n              - key: tier\n                operator: NotIn\n                values: [batch]\n          values:\n            owner: {team}\n  template:\n    metadata:\n      name: '{{{{ printf \"%s-%s\" \"{app}\" .nameNormalized | lower }}}}'\n      labels:\n        team: '{{{{ .values.owner | toYaml | trim }}}}'\n        tier: '{{{{ .metadata.labels.tier }}}}'\n      annotations:\n        example.com/region: '{{{{ .metadata.labels.region | upper }}}}'\n    spec:\n      project: {team}\n      source:\n        repoURL: {REPO}\n        targetRevision: HEAD\n        path: 'apps/{team}/{app}'\n      destination:\n        name: '{{{{ .name }}}}'\n        namespace: '{team}-{{{{ printf \"%s\" \"{app}\" }}}}'\n{sync}",
            head(true),
            REGIONS[index % 5],
            REGIONS[(index + 1) % 5],
            REGIONS[(index + 2) % 5],
        ),
        // The team's apps (git directories) × the staging and dev clusters of two regions.
        2 => format!(
            "{}    - matrix:\n        generators:\n          - git:\n              repoURL: {REPO}\n              revision: HEAD\n              directories:\n                - path: 'apps/{team}/*'\n          - clusters:\n              selector:\n                matchExpressions:\n                  - key: env\n                    operator: In\n                    values: [staging, dev]\n                  - key: region\n                    operator: In\n                    values: [{}, {}]\n  template:\n    metadata:\n      name: '{set}-{{{{ .path.basename }}}}-{{{{ .name }}}}'\n      labels:\n        team: '{{{{ default \"unowned\" (index .metadata.labels \"team\") }}}}'\n        env: '{{{{ .metadata.labels.env }}}}'\n    spec:\n      project: {team}\n      source:\n        repoURL: {REPO}\n        targetRevision: HEAD\n        path: '{{{{ .path.path }}}}'\n      destination:\n        server: '{{{{ .server }}}}'\n        namespace: '{team}-{{{{ .path.basename }}}}-{index:03}'\n{sync}",
            head(true),
            REGIONS[index % 5],
            REGIONS[(index + 3) % 5],
        ),
        // The team's apps (their config files, JSON and YAML) × the clusters of one tier.
        3 => format!(
            "{}    - matrix:\n        generators:\n          - git:\n              repoURL: {REPO}\n              revision: HEAD\n              files:\n                - path: 'config/{team}/*/config.json'\n                - path: 'config/{team}/*/config.yaml'\n          - clusters:\n              selector:\n                matchLabels:\n                  tier: {}\n  template:\n    metadata:\n      name: '{set}-{{{{ .app.name }}}}-{{{{ .name }}}}'\n      labels:\n        tier: '{{{{ .tier }}}}'\n        owner: '{{{{ .owner | replace \"@\" \"_at_\" }}}}'\n    spec:\n      project: {team}\n      source:\n        repoURL: {REPO}\n        targetRevision: HEAD\n        path: 'apps/{team}/{{{{ .path.basename }}}}'\n      destination:\n        name: '{{{{ .name }}}}'\n        namespace: '{team}-{{{{ .app.name }}}}-{index:03}'\n{sync}",
            head(true),
            TIERS[index % TIERS.len()],
        ),
        // Twenty clusters named in a list, fasttemplate.
        _ => {
            let mut elements = String::new();
            for _ in 0..20.min(clusters.len()) {
                let cluster = &clusters[rng.below(clusters.len() as u64) as usize];
                if !elements.contains(&format!(" {cluster}\n")) {
                    writeln!(
                        elements,
                        "          - cluster: {cluster}\n            shard: \"{}\"",
                        rng.below(4)
                    )
                    .unwrap();
                }
            }
            format!(
                "{}    - list:\n        elements:\n{elements}  template:\n    metadata:\n      name: '{app}-{{{{cluster}}}}'\n      labels:\n        shard: '{{{{shard}}}}'\n    spec:\n      project: {team}\n      source:\n        repoURL: {REPO}\n        targetRevision: HEAD\n        path: apps/{team}/{app}\n        directory:\n          recurse: true\n          exclude: '*.md'\n      destination:\n        name: '{{{{cluster}}}}'\n        namespace: {team}-{app}\n{sync}",
                head(false)
            )
        }
    }
}
