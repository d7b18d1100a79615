//! `fedrender diff` on a realistic change (testdata/diff: a replica change, an image bump on
//! one cluster, a ConfigMap moved between clusters, a rotated secret, a cluster joining the
//! inventory): the Markdown and JSON reports are snapshotted; identical inputs give nothing.

use std::path::{Path, PathBuf};

use crate::common;
use common::command;

use fedrender::source::fleet::{FleetSource, Inventory, read_fleet, run_fleet};
use fedrender::source::rendered_tree::RenderedDirectory;
use fedrender_engine::diff::{self, Comparison, FleetDiff, FleetObjects};
use fedrender_engine::run::{Options, Outcome};

fn source(side: &str) -> FleetSource {
    let dir = Path::new("testdata/diff").join(side);
    FleetSource::new(
        dir.join("input"),
        Inventory::File(dir.join("clusters.yaml")),
    )
}

/// The engine's diff of two inputs, as `fedrender diff --base` asks for it.
fn diff_of_inputs(head: &str, base: &str) -> Outcome<FleetDiff> {
    diff::against_base(
        || read_fleet(&source(head)),
        &Options::default(),
        || read_fleet(&source(base)),
        &Options::default(),
        &comparison(diff::CHUNK),
    )
}

fn realistic() -> fedrender_engine::diff::FleetDiff {
    let outcome = diff_of_inputs("head", "base");
    // The fixture's Secret is in the clear on purpose (the reports must redact its values): on
    // each side, that is the one warning.
    let warnings: Vec<(Option<fedrender_engine::lint::Lint>, Option<String>)> = outcome
        .warnings
        .iter()
        .map(|warning| (warning.lint, warning.about().object))
        .collect();
    let plaintext = (
        Some(fedrender_engine::lint::Lint::PlaintextSecret),
        Some("Secret shop/web-db".to_string()),
    );
    assert_eq!(
        warnings,
        [plaintext.clone(), plaintext],
        "{:?}",
        outcome.warnings
    );
    outcome.result.unwrap()
}

fn snapshot(name: &str, text: &str) {
    common::snapshot_settings("testdata/diff").bind(|| insta::assert_snapshot!(name, text));
}

/// `fedrender diff` of the realistic change in `format`, as the binary prints it.
fn realistic_report(format: &str) -> String {
    let output = common::fedrender(&[
        "diff",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--base",
        "testdata/diff/base/input",
        "--base-clusters",
        "testdata/diff/base/clusters.yaml",
        "--format",
        format,
    ]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn markdown_report_of_a_realistic_change() {
    snapshot("diff-markdown", &realistic_report("markdown"));
}

#[test]
fn json_report_of_a_realistic_change() {
    snapshot("diff-json", &realistic_report("json"));
}

#[test]
fn a_diff_of_identical_inputs_is_empty_and_exits_0() {
    assert!(diff_of_inputs("base", "base").result.unwrap().is_empty());
    let output = command()
        .args([
            "diff",
            "testdata/diff/base/input",
            "--clusters",
            "testdata/diff/base/clusters.yaml",
            "--base",
            "testdata/diff/base/input",
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "### fedrender diff\n\nNo changes to the rendered fleet.\n"
    );
}

#[test]
fn a_diff_against_the_committed_tree_matches_a_diff_against_the_base_input() {
    let out = committed_base("diff-against");
    let against = run_fleet(&source("head"), &Options::default(), |run| {
        diff::against_tree(
            run,
            &RenderedDirectory::open(&out)?,
            &comparison(diff::CHUNK),
        )
    });
    // A rendered tree does not say what its workloads requested or what scaled them: the
    // base's capacity and envelopes are the things only the base input knows.
    let mut expected = realistic();
    assert!(expected.base_capacity.is_some() && expected.base_envelopes.is_some());
    expected.base_capacity = None;
    expected.base_envelopes = None;
    assert_eq!(against.result.unwrap(), expected);
    std::fs::remove_dir_all(&out).unwrap();
}

/// The reference the streamed diffs must agree with: both sides rendered whole, compared
/// object by object.
fn diff_of_whole_renders() -> FleetDiff {
    let whole = |side: &str| {
        let rendered = run_fleet(&source(side), &Options::default(), |run| run.tree())
            .result
            .unwrap();
        FleetObjects::from_tree(&rendered.tree)
    };
    diff::diff(&whole("base"), &whole("head"), false)
}

/// A streamed diff as it is before provenance, findings and the runs' capacity and envelopes
/// are added to it.
fn streamed(mut diff: FleetDiff) -> FleetDiff {
    diff.provenance.clear();
    diff.findings.clear();
    diff.capacity = None;
    diff.base_capacity = None;
    diff.envelopes = None;
    diff.base_envelopes = None;
    diff.touched = Default::default();
    diff
}

fn comparison(chunk: usize) -> Comparison<'static> {
    Comparison {
        show_secrets: false,
        ignores: &[],
        chunk,
        relaxed: &[],
    }
}

#[test]
fn the_streamed_diff_agrees_with_comparing_whole_renders_at_any_chunk_size() {
    let expected = diff_of_whole_renders();
    assert!(expected.clusters.len() > 1, "{expected:?}");
    for chunk in [1, 2, usize::MAX] {
        let compared = diff::against_base(
            || read_fleet(&source("head")),
            &Options::default(),
            || read_fleet(&source("base")),
            &Options::default(),
            &comparison(chunk),
        );
        assert_eq!(
            streamed(compared.result.unwrap()),
            expected,
            "chunk {chunk}"
        );
    }
}

/// The diff's base side built into a fresh directory, as a committed output tree.
fn committed_base(name: &str) -> PathBuf {
    let committed = std::env::temp_dir().join(format!("fedrender-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&committed);
    let built = common::fedrender(&[
        "build",
        "testdata/diff/base/input",
        "--clusters",
        "testdata/diff/base/clusters.yaml",
        "--out",
        committed.to_str().unwrap(),
    ]);
    assert_eq!(built.status.code(), Some(0), "{built:?}");
    committed
}

#[test]
fn the_streamed_diff_against_a_rendered_tree_agrees_with_comparing_whole_renders() {
    let expected = diff_of_whole_renders();
    let committed = committed_base("against");
    for chunk in [1, usize::MAX] {
        let compared = run_fleet(&source("head"), &Options::default(), |run| {
            diff::against_tree(
                run,
                &RenderedDirectory::open(&committed)?,
                &comparison(chunk),
            )
        });
        assert_eq!(
            streamed(compared.result.unwrap()),
            expected,
            "chunk {chunk}"
        );
    }
    std::fs::remove_dir_all(&committed).unwrap();
}

#[test]
fn a_hand_made_copy_in_a_rendered_tree_does_not_hide_the_object_at_its_path() {
    let committed = committed_base("copy");
    let original = walkdir::WalkDir::new(&committed)
        .into_iter()
        .map(|entry| entry.unwrap().into_path())
        .find(|path| path.to_string_lossy().contains("/configmap_"))
        .expect("the base renders a ConfigMap");
    let text = std::fs::read_to_string(&original).unwrap();
    let copy = original.with_file_name("zz-copy.yaml");
    std::fs::write(&copy, format!("{text}extra: \"1\"\n")).unwrap();
    let compared = run_fleet(&source("base"), &Options::default(), |run| {
        diff::against_tree(
            run,
            &RenderedDirectory::open(&committed)?,
            &comparison(diff::CHUNK),
        )
    });
    let changes = compared.result.unwrap();
    assert!(changes.is_empty(), "{changes:?}");
    std::fs::remove_dir_all(&committed).unwrap();
}

#[test]
fn html_report_of_a_realistic_change() {
    snapshot("diff-html", &realistic_report("html"));
}

/// The HTML report of a change whose values are markup: a value from the fleet ends the `<pre>`
/// it is shown in and opens a script and an image, in the ConfigMap the change adds.
fn html_of_a_hostile_change(name: &str) -> (PathBuf, String) {
    let dir = common::empty_scratch(name);
    common::copy_tree(Path::new("testdata/diff/head"), &dir.join("head"));
    let shop = dir.join("head/input/shop.yaml");
    let text = std::fs::read_to_string(&shop).unwrap().replace(
        "CHECKOUT: \"on\"",
        "CHECKOUT: \"</pre><script>alert(1)</script><img src=x onerror=alert(2)>\"",
    );
    std::fs::write(&shop, text).unwrap();
    let head = dir.join("head");
    let output = command()
        .arg("diff")
        .arg(head.join("input"))
        .arg("--clusters")
        .arg(head.join("clusters.yaml"))
        .args(["--base", "testdata/diff/base/input"])
        .args(["--base-clusters", "testdata/diff/base/clusters.yaml"])
        .args(["--format", "html", "--quiet", "--title", "<b>PR</b> #8"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    (dir, String::from_utf8(output.stdout).unwrap())
}

/// Nothing from the fleet is markup on the page, and the page loads and runs nothing: no
/// script, no element that fetches (src, href), and a Content Security Policy forbidding both
/// should a value ever get through.
#[test]
fn the_html_report_escapes_every_value_and_loads_nothing() {
    let (_, page) = html_of_a_hostile_change("diff-html-hostile");
    assert!(page.contains("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x"));
    // Every tag is one the report writes, with the attributes it writes: none fetches or runs.
    let tags = [
        "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "ul", "li",
        "span", "code", "b", "br", "table", "tr", "th", "td", "details", "summary", "pre",
    ];
    let attributes = [
        "lang=",
        "charset=",
        "http-equiv=",
        "content=",
        "class=",
        "open",
    ];
    for tag in page.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap();
        // The attributes' names, their quoted values left out.
        let names: String = tag.split('"').step_by(2).collect();
        let mut words = names.split_whitespace();
        let name = words.next().unwrap_or_default().trim_start_matches('/');
        assert!(tags.contains(&name), "<{tag}> in the page");
        if !matches!(name, "meta" | "!DOCTYPE") {
            for word in words {
                assert!(
                    attributes
                        .iter()
                        .any(|attribute| word.starts_with(attribute)),
                    "<{tag}> in the page"
                );
            }
        }
    }
    assert!(page.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'\">"
    ));
    assert!(page.contains("<title>&lt;b&gt;PR&lt;/b&gt; #8</title>"));
}

/// The page in a real browser (Debian's Chromium, headless): its DOM holds no script and shows
/// the values as text, and its screenshot shows what a reviewer looks for, the added lines in
/// green and the removed in red, each a band of the page.
#[test]
fn the_html_report_shows_in_a_real_browser() {
    if !common::tools::require(&["chromium"]) {
        return;
    }
    let (dir, page) = html_of_a_hostile_change("diff-html-browser");
    let html = dir.join("report.html");
    std::fs::write(&html, page).unwrap();
    let url = format!("file://{}", html.canonicalize().unwrap().display());
    let chromium = |args: &[&str]| {
        std::process::Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .args(args)
            .arg(&url)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let dom = String::from_utf8(chromium(&["--dump-dom"]).stdout).unwrap();
    assert!(dom.contains("<h1>&lt;b&gt;PR&lt;/b&gt; #8</h1>"), "{dom}");
    assert!(!dom.contains("<script") && !dom.contains("<img"), "{dom}");
    let shot = chromium(&["--screenshot=shot.png", "--window-size=1200,2400"]);
    assert!(dir.join("shot.png").is_file(), "{shot:?}");
    // Rows of the screenshot that are mostly the added lines' green and the removed lines' red,
    // read with Python's zlib (PNG's scanlines, each unfiltered).
    let counted = std::process::Command::new("python3")
        .arg("-c")
        .arg(PNG_ROWS_OF_COLOUR)
        .arg(dir.join("shot.png"))
        .output()
        .unwrap();
    let rows = String::from_utf8(counted.stdout).unwrap();
    let (green, red) = rows.trim().split_once(' ').expect("two counts");
    let (green, red): (usize, usize) = (green.parse().unwrap(), red.parse().unwrap());
    // Each diff line is a band about 17 px high; the change adds a 7-line ConfigMap on one
    // cluster and removes one on another.
    assert!(
        green >= 7 * 10 && red >= 7 * 10,
        "green rows {green}, red rows {red}"
    );
}

/// Prints how many rows of a PNG (8-bit RGB or RGBA, not interlaced) are mostly the added
/// lines' colour (#aceebb) and how many mostly the removed lines' (#ffcecb).
const PNG_ROWS_OF_COLOUR: &str = r#"
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
pos, idat = 8, b''
while pos < len(data):
    length, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b'IHDR':
        width, height, depth, colour = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + length
assert depth == 8 and colour in (2, 6)
bpp = 3 if colour == 2 else 4
raw, stride = zlib.decompress(idat), width * bpp
previous, green, red = bytearray(stride), 0, 0
for y in range(height):
    kind = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = previous[x], previous[x - bpp] if x >= bpp else 0
        if kind == 1: line[x] = (line[x] + a) & 255
        elif kind == 2: line[x] = (line[x] + b) & 255
        elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    pixels = [tuple(line[x:x + 3]) for x in range(0, stride, bpp)]
    if pixels.count((0xac, 0xee, 0xbb)) > width // 2: green += 1
    if pixels.count((0xff, 0xce, 0xcb)) > width // 2: red += 1
    previous = line
print(green, red)
"#;
