//! What `fuzz_targets/image_reference.rs` does with an input, which
//! `engine/tests/fuzz_seeds.rs` replays on every seed: image reference parsing
//! (distribution's grammar, Karmada's registry split) and the tag-or-digest operations. A
//! reference that parses must parse again, to the same parts, from the text it is written back
//! as: that text is what lands in the rendered manifest.
//!
//! The input is the image; after a first newline, the rest is a tag or digest to set.

use fedrender_engine::overrides::image::ImageReference;

/// Whether `data` reached the parser (one that does not parse did); panics where a check fails.
pub fn run(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let (image, tag_or_digest) = text.split_once('\n').unwrap_or((text, ""));
    let Ok(mut reference) = ImageReference::parse(image) else {
        return true;
    };
    let written = reference.to_string();
    assert_eq!(
        ImageReference::parse(&written).as_ref(),
        Ok(&reference),
        "{image:?} was written as {written:?}"
    );
    // Karmada's SetTagOrDigest checks a digest against the reference pattern only, not the
    // length its algorithm needs, so the result may not parse; when it does, it must be itself.
    reference.set_tag_or_digest(tag_or_digest);
    let written = reference.to_string();
    if let Ok(reparsed) = ImageReference::parse(&written) {
        assert_eq!(
            reparsed, reference,
            "{image:?} with {tag_or_digest:?} was written as {written:?}"
        );
    }
    reference.remove_tag_or_digest();
    let _ = reference.tag_or_digest();
    true
}
