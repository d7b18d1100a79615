//! The output tree as text: the rendered objects become one manifest tree per member cluster,
//! each with a kustomization listing its files ([`TreeLayout`]), held in memory
//! ([`OutputTree`]) or written as one stream (`write_stream`), with the GitOps wiring beside
//! it ([`gitops`]). Pure: the shell writes the files.

pub mod gitops;
pub mod layout;

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Arc;

use crate::diagnostics::{Diagnostic, Rejected};
use crate::object::ObjectKey;
use crate::render::{Destination, Placed};
use crate::work::RenderedTemplate;
use crate::yaml;

use crate::manifest::HEADER;

/// The whole output: file path relative to the output directory → contents. Every inventory
/// cluster has a directory, with at least its kustomization.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct OutputTree {
    /// Each file by its path relative to the output directory.
    pub files: BTreeMap<String, OutputFile>,
    /// Every member cluster, sorted.
    pub clusters: Vec<String>,
    /// How many files hold an object (the rest are kustomizations).
    pub object_count: usize,
}

/// One file of the output: its text, shared by every cluster that gets the same manifest, and
/// the object it holds (`None` for a kustomization).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// The file's bytes, as written.
    pub text: Arc<str>,
    /// The object it holds; `None` for a kustomization.
    pub object: Option<Arc<ObjectKey>>,
}

impl OutputTree {
    /// The manifest files: path, object, text.
    pub fn objects(&self) -> impl Iterator<Item = (&String, &Arc<ObjectKey>, &Arc<str>)> {
        self.files
            .iter()
            .filter_map(|(path, file)| Some((path, file.object.as_ref()?, &file.text)))
    }
}

/// Where every rendered object goes, known from placement alone, before any object is built:
/// each object's path within its cluster directory and each cluster's files, in path order.
/// Paths are the bulk of it; the manifests themselves stream past.
#[derive(Debug, Default, Clone)]
pub struct TreeLayout {
    /// Every member cluster, sorted.
    clusters: Vec<String>,
    /// Each object's path relative to its cluster directory, by position in the destinations.
    paths: Vec<String>,
    /// Per cluster, the positions of the objects it receives, sorted by path.
    files: Vec<Vec<u32>>,
    /// Each object's place among all paths, to put files in path order without comparing
    /// strings.
    ranks: Vec<u32>,
    /// Whether `clusters` is a selection of the inventory (`--cluster`): then the output
    /// directory's other entries are other builds' and never touched.
    partial: bool,
    /// Files beside the cluster directories (the GitOps wiring): path relative to the output
    /// directory and text, sorted by path.
    wiring: Vec<(String, String)>,
}

/// The `cluster` of a [`TreeFile`] that is a wiring file, its `object` the file's index.
const WIRING: u32 = u32::MAX;

/// One file of the output tree, as compact as a million of them need: an object's file in
/// one cluster, or (without an object) the cluster's kustomization.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TreeFile {
    cluster: u32,
    object: Option<u32>,
}

impl TreeFile {
    /// The file of the object at position `object` (in the destinations) on `cluster`.
    pub fn object(cluster: usize, object: usize) -> TreeFile {
        TreeFile {
            cluster: u32::try_from(cluster).expect("fewer than 2^32 clusters"),
            object: Some(u32::try_from(object).expect("fewer than 2^32 objects")),
        }
    }

    /// The cluster's position in the inventory.
    pub fn cluster(self) -> usize {
        self.cluster as usize
    }

    /// The object's position in the destinations; `None` for a kustomization.
    pub fn object_position(self) -> Option<usize> {
        self.object.map(|object| object as usize)
    }

    /// The kustomization of `cluster`.
    pub fn kustomization(cluster: usize) -> TreeFile {
        TreeFile {
            cluster: u32::try_from(cluster).expect("fewer than 2^32 clusters"),
            object: None,
        }
    }
}

impl TreeLayout {
    /// `destinations` lists every object with the clusters (positions in `clusters`) that
    /// receive it. Two objects that would share a file in some cluster are an error, naming
    /// both and where they were written.
    pub fn new<'a>(
        clusters: &[&str],
        destinations: impl IntoIterator<Item = Destination<'a>>,
    ) -> Result<TreeLayout, Rejected> {
        // Files are found by cluster name with a binary search.
        assert!(
            clusters.windows(2).all(|pair| pair[0] < pair[1]),
            "the inventory is sorted by name, without duplicates"
        );
        let mut layout = TreeLayout {
            clusters: clusters.iter().map(|name| name.to_string()).collect(),
            paths: Vec::new(),
            files: vec![Vec::new(); clusters.len()],
            ranks: Vec::new(),
            partial: false,
            wiring: Vec::new(),
        };
        let mut objects = Vec::new();
        for (position, destination) in destinations.into_iter().enumerate() {
            let position = u32::try_from(position).expect("fewer than 2^32 objects");
            if !destination.clusters.is_empty() {
                layout.paths.push(layout::object_path(destination.key));
            } else {
                layout.paths.push(String::new());
            }
            for &cluster in &destination.clusters {
                layout.files[cluster].push(position);
            }
            objects.push((destination.key, destination.origin));
        }
        let paths = &layout.paths;
        // Objects sharing a path sort by position, so a collision is reported the same way
        // every time.
        let mut by_path: Vec<u32> = (0..paths.len() as u32).collect();
        by_path.sort_unstable_by(|a, b| paths[*a as usize].cmp(&paths[*b as usize]).then(a.cmp(b)));
        layout.ranks = vec![0; paths.len()];
        for (rank, &object) in by_path.iter().enumerate() {
            layout.ranks[object as usize] = rank as u32;
        }
        // Each colliding pair once, with the first cluster where they meet.
        let mut collisions: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        for (cluster, files) in layout.files.iter_mut().enumerate() {
            let paths = &layout.paths;
            let ranks = &layout.ranks;
            files.sort_unstable_by_key(|&object| ranks[object as usize]);
            for pair in files.windows(2) {
                if paths[pair[0] as usize] == paths[pair[1] as usize] {
                    collisions.entry((pair[0], pair[1])).or_insert(cluster);
                }
            }
        }
        let errors: Vec<Diagnostic> = collisions
            .into_iter()
            .map(|((first, second), cluster)| {
                let (first_key, first_origin) = objects[first as usize];
                let (second_key, second_origin) = objects[second as usize];
                Diagnostic::error(
                    Some(second_origin.clone()),
                    format!(
                        "{second_key} would be written to the same file as {first_key} (from \
                         {first_origin}): {}/{}; file names do not tell kinds that differ only \
                         in case apart",
                        layout.clusters[cluster], layout.paths[first as usize]
                    ),
                )
            })
            .collect();
        if errors.is_empty() {
            Ok(layout)
        } else {
            Err(errors.into())
        }
    }

    /// The member clusters emitted, sorted.
    pub fn clusters(&self) -> &[String] {
        &self.clusters
    }

    /// Adds files beside the cluster directories (see [`gitops::files`]), sorted by path.
    pub(crate) fn with_wiring(mut self, mut files: Vec<(String, String)>) -> TreeLayout {
        files.sort();
        self.wiring = files;
        self
    }

    /// The wiring files with their texts.
    pub fn wiring_files(&self) -> impl Iterator<Item = (TreeFile, &str)> {
        self.wiring.iter().enumerate().map(|(index, (_, text))| {
            (
                TreeFile {
                    cluster: WIRING,
                    object: Some(u32::try_from(index).expect("a few wiring files")),
                },
                text.as_str(),
            )
        })
    }

    /// Marks the layout as covering some clusters of the inventory only.
    pub fn partial(mut self) -> TreeLayout {
        self.partial = true;
        self
    }

    /// Whether an entry at the top of the output directory is this layout's to bring up to
    /// date: any, for the whole inventory (a cluster that left it is pruned); a kept
    /// cluster's directory, for a selection.
    pub fn owns_top_level(&self, name: &str) -> bool {
        !self.partial
            || self
                .clusters
                .binary_search_by(|cluster| cluster.as_str().cmp(name))
                .is_ok()
            || self
                .wiring
                .iter()
                .any(|(path, _)| path.split('/').next() == Some(name))
    }

    /// How many object files the tree has (the rest are kustomizations).
    pub fn object_count(&self) -> usize {
        self.files.iter().map(Vec::len).sum()
    }

    /// The objects that go somewhere, in the order of their file path within a cluster
    /// directory (cluster-scoped objects first, under `_cluster/`), objects on one path by
    /// position: the order of `build --stdout`, which needs nothing rendered to be known.
    pub(crate) fn stream_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.paths.len())
            .filter(|&object| !self.paths[object].is_empty())
            .collect();
        order.sort_unstable_by_key(|&object| self.ranks[object]);
        order
    }

    /// A key that sorts files by cluster, then path (the kustomization first).
    pub fn path_order(&self, file: TreeFile) -> (u32, Option<u32>) {
        if file.cluster == WIRING {
            return (file.cluster, file.object);
        }
        (
            file.cluster,
            file.object.map(|object| self.ranks[object as usize]),
        )
    }

    /// A file's path relative to the output directory.
    pub fn path(&self, file: TreeFile) -> String {
        if file.cluster == WIRING {
            let index = file.object.expect("a wiring file has an index") as usize;
            return self.wiring[index].0.clone();
        }
        let cluster = &self.clusters[file.cluster as usize];
        match file.object {
            Some(object) => format!("{cluster}/{}", self.paths[object as usize]),
            None => format!("{cluster}/{}", layout::KUSTOMIZATION_FILE),
        }
    }

    /// Every file of one cluster, the kustomization first, then in path order.
    pub fn cluster_files(&self, cluster: usize) -> impl Iterator<Item = TreeFile> + '_ {
        std::iter::once(TreeFile::kustomization(cluster)).chain(
            self.files[cluster]
                .iter()
                .map(move |&object| TreeFile::object(cluster, object as usize)),
        )
    }

    /// Whether the tree has this file (relative to the output directory).
    pub fn holds(&self, path: &str) -> bool {
        self.file_at(path).is_some()
    }

    /// The file at a path relative to the output directory, if the tree has one there.
    pub(crate) fn file_at(&self, path: &str) -> Option<TreeFile> {
        if let Ok(index) = self
            .wiring
            .binary_search_by(|(wired, _)| wired.as_str().cmp(path))
        {
            return Some(TreeFile {
                cluster: WIRING,
                object: Some(index as u32),
            });
        }
        let (cluster, relative) = path.split_once('/')?;
        let cluster = self
            .clusters
            .binary_search_by(|name| name.as_str().cmp(cluster))
            .ok()?;
        if relative == layout::KUSTOMIZATION_FILE {
            return Some(TreeFile::kustomization(cluster));
        }
        let files = &self.files[cluster];
        let found = files
            .binary_search_by(|&object| self.paths[object as usize].as_str().cmp(relative))
            .ok()?;
        Some(TreeFile::object(cluster, files[found] as usize))
    }

    /// A kustomization listing the cluster's files in path order, so `kubectl kustomize` (and
    /// Argo CD or Flux) builds the directory as it is.
    pub fn kustomization(&self, cluster: usize) -> String {
        let resources: Vec<serde_json::Value> = self.files[cluster]
            .iter()
            .map(|&object| self.paths[object as usize].as_str().into())
            .collect();
        let document = serde_json::json!({
            "apiVersion": "kustomize.config.k8s.io/v1beta1",
            "kind": "Kustomization",
            "resources": resources,
        });
        format!("{HEADER}{}", yaml::to_yaml(&document))
    }
}

impl OutputTree {
    /// The whole tree in memory (for `--stdout` and tests): the layout's files with
    /// every rendered object, each text shared by the clusters that receive it.
    pub fn collect(layout: &TreeLayout, placed: &Placed<'_>) -> Result<OutputTree, Rejected> {
        let mut rendered = Vec::new();
        placed.render_chunks(usize::MAX, |chunk| {
            rendered = chunk;
            Ok(())
        })?;
        let mut tree = OutputTree {
            clusters: layout.clusters.clone(),
            object_count: layout.object_count(),
            ..OutputTree::default()
        };
        for cluster in 0..layout.clusters.len() {
            tree.files.insert(
                layout.path(TreeFile::kustomization(cluster)),
                OutputFile {
                    text: layout.kustomization(cluster).into(),
                    object: None,
                },
            );
        }
        for (object, template) in rendered {
            let key = Arc::new(template.key);
            for variant in template.variants {
                for cluster in variant.clusters {
                    tree.files.insert(
                        layout.path(TreeFile::object(cluster, object)),
                        OutputFile {
                            text: variant.manifest.clone(),
                            object: Some(key.clone()),
                        },
                    );
                }
            }
        }
        Ok(tree)
    }
}

/// Writes rendered objects as documents of one YAML stream, for `build --stdout`, as they
/// come from [`Placed::render_only`] over [`TreeLayout::stream_order`]: object by object, each
/// object's clusters in name order, each document preceded by a comment naming its cluster and
/// file. Each text is written as it is, once per cluster that receives it, never copied.
pub(crate) fn write_stream(
    layout: &TreeLayout,
    rendered: &[(usize, RenderedTemplate)],
    out: &mut impl Write,
) -> io::Result<()> {
    let mut documents: Vec<(usize, usize, &str)> = rendered
        .iter()
        .enumerate()
        .flat_map(|(order, (_, template))| {
            template.variants.iter().flat_map(move |variant| {
                (variant.clusters.iter()).map(move |&cluster| (order, cluster, &*variant.manifest))
            })
        })
        .collect();
    documents.sort_unstable_by_key(|&(order, cluster, _)| (order, cluster));
    for &(order, cluster, text) in &documents {
        let body = text.strip_prefix(HEADER).unwrap_or(text);
        out.write_all(b"---\n# cluster: ")?;
        out.write_all(layout.clusters[cluster].as_bytes())?;
        out.write_all(b", file: ")?;
        out.write_all(layout.paths[rendered[order].0].as_bytes())?;
        out.write_all(b"\n")?;
        out.write_all(body.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Origin;

    fn widget(kind: &str) -> ObjectKey {
        ObjectKey {
            group: "example.com".to_string(),
            kind: kind.to_string(),
            namespace: "ns".to_string(),
            name: "w".to_string(),
        }
    }

    #[test]
    fn two_objects_that_would_share_a_file_are_one_error_naming_both_files() {
        let (upper, lower) = (widget("Widget"), widget("widget"));
        let (first, second) = (Origin::new("a.yaml", 0, 3), Origin::new("b.yaml", 1, 7));
        let destinations = [(&upper, &first), (&lower, &second)].map(|(key, origin)| Destination {
            key,
            origin,
            clusters: vec![0, 1],
        });
        let rejected = TreeLayout::new(&["c1", "c2"], destinations).unwrap_err();
        assert_eq!(rejected.errors.len(), 1, "{rejected}");
        let error = &rejected.errors[0];
        assert_eq!(error.origin.as_ref(), Some(&second));
        assert!(
            error.message.contains(&first.to_string()),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("c1/ns/widget.example.com_w.yaml"),
            "{}",
            error.message
        );
    }
}
