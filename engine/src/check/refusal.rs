//! One reason an API server gives for refusing to create a CRD, shared by the modules that
//! find them ([`super::crd_creation`], [`super::crd_decoding`], [`super::crd_structure`],
//! [`super::crd_defaults`]) and the registry that reports them ([`super::crd`]).

/// One reason an API server gives for refusing to create a CRD: the field of the CRD as it
/// names it (`spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]
/// .rule`), the same field as a path of the document (to find its line), the rule it is
/// about, and what it says (`Invalid value: compilation failed: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub field: String,
    pub document_field: String,
    pub rule: Option<String>,
    pub says: String,
}

impl Refusal {
    /// A refusal of the field at `place`, saying `says`.
    pub fn at(place: &Place, says: String) -> Refusal {
        Refusal {
            field: place.api.clone(),
            document_field: place.document.clone(),
            rule: None,
            says,
        }
    }
}

/// A field of a CRD, both as the API server names it (`spec.validation.openAPIV3Schema
/// .properties[spec].items`) and as a path of the document (`spec.versions[0].schema
/// .openAPIV3Schema.properties.spec.items`), which finds its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub api: String,
    pub document: String,
}

impl Place {
    pub fn new(api: impl Into<String>, document: impl Into<String>) -> Place {
        Place {
            api: api.into(),
            document: document.into(),
        }
    }

    /// A field below: `items`, `x-kubernetes-list-type`.
    pub fn child(&self, name: &str) -> Place {
        Place::new(
            format!("{}.{name}", self.api),
            format!("{}.{name}", self.document),
        )
    }

    /// An entry of a map below: `properties[spec]`, in the document `properties.spec`.
    pub fn key(&self, map: &str, key: &str) -> Place {
        Place::new(
            format!("{}.{map}[{key}]", self.api),
            format!("{}.{map}.{key}", self.document),
        )
    }

    /// An item of a list below: `anyOf[1]`.
    pub fn index(&self, list: &str, index: usize) -> Place {
        Place::new(
            format!("{}.{list}[{index}]", self.api),
            format!("{}.{list}[{index}]", self.document),
        )
    }
}
