//! The `kube` library Karmada hands to interpreter scripts (`local kube = require("kube")`),
//! with Karmada's results (karmada pkg/resourceinterpreter/customized/declarative/luavm/kube.go):
//! quantity arithmetic and the requirements and dependencies of a pod template, computed by the
//! same code as fedrender's native interpreter.

use std::collections::BTreeMap;

use mlua::{Lua, MultiValue, Table, Value as LuaValue};
use serde_json::{Map, Value, json};

use super::convert::{self, Shape};
use super::messages::lua_type;
use crate::interpret::dependencies;
use crate::interpret::requests;
use crate::quantity::{self, Quantity, QuantityFormat};

/// The name scripts require the library by.
pub const NAME: &str = "kube";

/// The library's functions, made once per Lua state and copied into each call's `kube` table.
pub fn library(lua: &Lua) -> mlua::Result<Table> {
    let kube = lua.create_table()?;
    kube.raw_set("resourceAdd", lua.create_function(resource_add)?)?;
    kube.raw_set(
        "accuratePodRequirements",
        lua.create_function(accurate_pod_requirements)?,
    )?;
    kube.raw_set(
        "getPodDependencies",
        lua.create_function(get_pod_dependencies)?,
    )?;
    kube.raw_set(
        "getResourceQuantity",
        lua.create_function(get_resource_quantity)?,
    )?;
    Ok(kube)
}

fn raise(message: String) -> mlua::Error {
    mlua::Error::runtime(message)
}

/// A quantity argument: a string, or nil for zero (kube.go `checkResourceQuantity`); a number
/// is a type error there too.
fn quantity_argument(
    function: &str,
    position: usize,
    value: &LuaValue,
) -> mlua::Result<Option<(Quantity, QuantityFormat)>> {
    match value {
        LuaValue::Nil => Ok(None),
        LuaValue::String(text) => {
            let text = text.to_str()?.to_string();
            let parsed = quantity::parse_quantity(&text).map_err(|problem| {
                raise(format!("bad argument #{position} to {function}: {problem}"))
            })?;
            let format = QuantityFormat::of(&text).map_err(raise)?;
            Ok(Some((parsed, format)))
        }
        other => Err(raise(format!(
            "bad argument #{position} to {function} (string expected, got {})",
            lua_type(other)
        ))),
    }
}

/// `kube.resourceAdd(q1, q2, …)`: the sum as a quantity string, in the format of the first
/// term added to a zero sum (`Quantity.Add`).
fn resource_add(_: &Lua, arguments: MultiValue) -> mlua::Result<String> {
    let mut sum = Quantity::ZERO;
    let mut format = None;
    for (index, argument) in arguments.iter().enumerate() {
        let Some((term, term_format)) = quantity_argument("resourceAdd", index + 1, argument)?
        else {
            continue;
        };
        if sum.is_zero() {
            format = Some(term_format);
        }
        sum = sum.saturating_add(term);
    }
    Ok(quantity::canonical(
        sum,
        format.unwrap_or(QuantityFormat::DecimalSi),
    ))
}

/// `kube.getResourceQuantity(q)`: the quantity as a number (`AsApproximateFloat64`).
fn get_resource_quantity(_: &Lua, arguments: MultiValue) -> mlua::Result<f64> {
    if arguments.len() != 1 {
        return Err(raise(
            "getResourceQuantity only accepts one argument".to_string(),
        ));
    }
    let value = match quantity_argument("getResourceQuantity", 1, &arguments[0])? {
        Some((quantity, _)) => quantity.nanos() as f64 / 1e9,
        None => 0.0,
    };
    if value < 0.0 {
        return Err(raise(format!(
            "getResourceQuantity: the quantity is negative ({value})"
        )));
    }
    Ok(value)
}

/// A table argument as JSON, converted the way Karmada converts it into a Go struct (no
/// reference object: empty tables are dropped).
fn table_argument(function: &str, position: usize, value: &LuaValue) -> mlua::Result<Value> {
    let LuaValue::Table(_) = value else {
        return Err(raise(format!(
            "bad argument #{position} to {function} (table expected, got {})",
            lua_type(value)
        )));
    };
    let mut json = convert::from_lua(value)
        .map_err(|problem| raise(format!("{function}: argument #{position}: {problem}")))?;
    convert::settle_empty_tables(&mut json, Shape::Map, &[]);
    Ok(json)
}

/// `kube.accuratePodRequirements(podTemplate)`: Karmada's `GenerateReplicaRequirements`, the
/// per-replica resource request and node claim of a pod template, or nil when it has neither.
fn accurate_pod_requirements(lua: &Lua, arguments: MultiValue) -> mlua::Result<LuaValue> {
    if arguments.len() != 1 {
        return Err(raise(
            "accuratePodRequirements only accepts one argument".to_string(),
        ));
    }
    let template = table_argument("accuratePodRequirements", 1, &arguments[0])?;
    let requirements = pod_requirements(&template).map_err(raise)?;
    convert::to_lua(lua, &requirements)
}

/// The requirements of a pod template as Karmada's `ReplicaRequirements` JSON, or null.
pub(crate) fn pod_requirements(template: &Value) -> Result<Value, String> {
    let empty = Value::Object(Map::new());
    let spec = template.get("spec").unwrap_or(&empty);
    let request = requests::resource_request(spec)?;
    let mut requirements = Map::new();
    if let Some(claim) = node_claim(spec) {
        requirements.insert("nodeClaim".to_string(), claim);
    }
    if !request.is_empty() {
        requirements.insert("resourceRequest".to_string(), resource_list(&request));
    }
    Ok(if requirements.is_empty() {
        Value::Null
    } else {
        Value::Object(requirements)
    })
}

/// A resource list as Kubernetes writes the one Karmada builds (util/resource.go
/// `ResourceList`): memory, ephemeral storage and huge pages in binary SI, the rest decimal SI.
fn resource_list(request: &BTreeMap<String, Quantity>) -> Value {
    let list: Map<String, Value> = request
        .iter()
        .map(|(name, amount)| {
            let binary = matches!(name.as_str(), "memory" | "ephemeral-storage")
                || name.starts_with("hugepages-");
            let format = if binary {
                QuantityFormat::BinarySi
            } else {
                QuantityFormat::DecimalSi
            };
            (
                name.clone(),
                Value::from(quantity::canonical(*amount, format)),
            )
        })
        .collect();
    Value::Object(list)
}

/// Karmada's `GenerateNodeClaimByPodSpec`: node selector, tolerations and required node
/// affinity, or none when all three are absent.
fn node_claim(spec: &Value) -> Option<Value> {
    let mut claim = Map::new();
    if let Some(affinity) = crate::json_pointer::pointer(
        spec,
        "/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution",
    ) {
        claim.insert("hardNodeAffinity".to_string(), affinity.clone());
    }
    if let Some(selector) = spec.get("nodeSelector").filter(|s| !s.is_null()) {
        claim.insert("nodeSelector".to_string(), selector.clone());
    }
    if let Some(tolerations) = spec
        .get("tolerations")
        .filter(|t| t.as_array().is_some_and(|list| !list.is_empty()))
    {
        claim.insert("tolerations".to_string(), tolerations.clone());
    }
    (!claim.is_empty()).then_some(Value::Object(claim))
}

/// `kube.getPodDependencies(podTemplate, namespace)`: the ConfigMaps, Secrets, ServiceAccounts
/// and PersistentVolumeClaims the pod template names, in `namespace` (nil: `default`), in
/// Karmada's order of kinds, each kind's names sorted; nil, not an empty list, when it names
/// none (Karmada hands scripts its nil slice).
fn get_pod_dependencies(lua: &Lua, arguments: MultiValue) -> mlua::Result<LuaValue> {
    if arguments.len() != 2 {
        return Err(raise(
            "getPodDependencies only accepts two argument".to_string(),
        ));
    }
    let template = table_argument("getPodDependencies", 1, &arguments[0])?;
    let namespace = match &arguments[1] {
        LuaValue::Nil => "default".to_string(),
        LuaValue::String(text) => text.to_str()?.to_string(),
        LuaValue::Integer(number) => number.to_string(),
        LuaValue::Number(number) => number.to_string(),
        other => {
            return Err(raise(format!(
                "bad argument #2 to getPodDependencies (string expected, got {})",
                lua_type(other)
            )));
        }
    };
    let empty = Value::Object(Map::new());
    let spec = template.get("spec").unwrap_or(&empty);
    let found = dependencies::pod_dependencies(spec, &namespace);
    let mut references = Vec::new();
    for kind in [
        "ConfigMap",
        "Secret",
        "ServiceAccount",
        "PersistentVolumeClaim",
    ] {
        for key in found.iter().filter(|key| key.kind == kind) {
            references.push(json!({
                "apiVersion": "v1",
                "kind": kind,
                "namespace": key.namespace,
                "name": key.name,
            }));
        }
    }
    if references.is_empty() {
        return Ok(LuaValue::Nil);
    }
    convert::to_lua(lua, &Value::Array(references))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `script` with the library as `kube`; the result as JSON (a Lua value cannot
    /// outlive its state).
    fn eval(script: &str) -> Result<Value, String> {
        let lua = Lua::new();
        lua.globals().set("kube", library(&lua).unwrap()).unwrap();
        let value: LuaValue = lua.load(script).eval().map_err(|e| e.to_string())?;
        let mut json = convert::from_lua(&value)?;
        convert::settle_empty_tables(&mut json, Shape::Map, &[]);
        Ok(json)
    }

    fn eval_json(script: &str) -> Value {
        eval(script).unwrap()
    }

    fn eval_string(script: &str) -> String {
        match eval(script).unwrap() {
            Value::String(text) => text,
            other => panic!("not a string: {other:?}"),
        }
    }

    // karmada kube_test.go TestResourceAdd.
    #[test]
    fn resource_add_sums_quantities_in_the_first_terms_format() {
        assert_eq!(eval_string("return kube.resourceAdd('1', '2')"), "3");
        assert_eq!(
            eval_string("return kube.resourceAdd('100m', '200m')"),
            "300m"
        );
        assert_eq!(eval_string("return kube.resourceAdd('1Gi', '1Gi')"), "2Gi");
        assert_eq!(
            eval_string("return kube.resourceAdd('1Gi', '500m')"),
            "1073741824500m"
        );
        assert_eq!(
            eval_string("return kube.resourceAdd(nil, '1Ki', nil)"),
            "1Ki"
        );
        assert_eq!(eval_string("return kube.resourceAdd()"), "0");
        assert_eq!(eval_string("return kube.resourceAdd('1e3', '1e3')"), "2e3");
    }

    #[test]
    fn resource_add_refuses_numbers_and_malformed_quantities() {
        let number = eval("return kube.resourceAdd(1)").unwrap_err().to_string();
        assert!(number.contains("string expected, got number"), "{number}");
        let malformed = eval("return kube.resourceAdd('1x')")
            .unwrap_err()
            .to_string();
        assert!(
            malformed.contains("bad argument #1 to resourceAdd"),
            "{malformed}"
        );
    }

    // karmada kube_test.go TestGetResourceQuantity.
    #[test]
    fn get_resource_quantity_is_the_value_as_a_number() {
        assert_eq!(
            eval("return kube.getResourceQuantity('250m')").unwrap(),
            json!(0.25)
        );
        assert_eq!(
            eval("return kube.getResourceQuantity('1Ki')").unwrap(),
            json!(1024)
        );
        assert_eq!(
            eval("return kube.getResourceQuantity(nil)").unwrap(),
            json!(0)
        );
        assert!(eval("return kube.getResourceQuantity('-1')").is_err());
        assert!(eval("return kube.getResourceQuantity('1', '2')").is_err());
    }

    // karmada kube_test.go TestAccuratePodRequirements.
    #[test]
    fn accurate_pod_requirements_sum_containers_and_claim_nodes() {
        let requirements = eval_json(
            r#"return kube.accuratePodRequirements({spec = {
                nodeSelector = {disk = "ssd"},
                tolerations = {{key = "dedicated", operator = "Exists"}},
                containers = {
                    {name = "a", resources = {requests = {cpu = "100m", memory = "1Gi"}}},
                    {name = "b", resources = {limits = {cpu = "1", memory = "512Mi"}}}},
                initContainers = {{name = "i", resources = {requests = {cpu = "2"}}}}}})"#,
        );
        assert_eq!(
            requirements,
            json!({
                "nodeClaim": {"nodeSelector": {"disk": "ssd"},
                              "tolerations": [{"key": "dedicated", "operator": "Exists"}]},
                "resourceRequest": {"cpu": "2", "memory": "1536Mi"}
            })
        );
    }

    #[test]
    fn a_pod_template_without_requests_or_node_claims_has_no_requirements() {
        assert_eq!(
            eval("return kube.accuratePodRequirements({spec = {containers = {{name = 'a'}}}})")
                .unwrap(),
            Value::Null
        );
        assert_eq!(
            eval("return kube.accuratePodRequirements({spec = {nodeSelector = {}}})").unwrap(),
            Value::Null,
            "an empty node selector is dropped on the way in, as in Karmada"
        );
        assert!(eval("return kube.accuratePodRequirements()").is_err());
        assert!(eval("return kube.accuratePodRequirements('pod')").is_err());
    }

    // karmada kube_test.go TestGetPodDependencies.
    #[test]
    fn get_pod_dependencies_lists_the_referenced_objects_in_the_namespace() {
        let dependencies = eval_json(
            r#"return kube.getPodDependencies({spec = {
                serviceAccountName = "runner",
                imagePullSecrets = {{name = "registry"}},
                containers = {{name = "a", envFrom = {{configMapRef = {name = "env"}}}}},
                volumes = {{name = "data", persistentVolumeClaim = {claimName = "data"}},
                           {name = "cfg", configMap = {name = "app"}}}}}, "shop")"#,
        );
        let named = |kind: &str, name: &str| json!({"apiVersion": "v1", "kind": kind, "namespace": "shop", "name": name});
        assert_eq!(
            dependencies,
            json!([
                named("ConfigMap", "app"),
                named("ConfigMap", "env"),
                named("Secret", "registry"),
                named("ServiceAccount", "runner"),
                named("PersistentVolumeClaim", "data"),
            ])
        );
    }

    #[test]
    fn get_pod_dependencies_defaults_the_namespace_and_checks_its_arguments() {
        let dependencies =
            eval_json("return kube.getPodDependencies({spec = {serviceAccountName = 'x'}}, nil)");
        assert_eq!(dependencies[0]["namespace"], json!("default"));
        assert_eq!(
            eval("return kube.getPodDependencies({spec = {containers = {{name = 'a'}}}}, 'x')")
                .unwrap(),
            Value::Null,
            "none is nil, as in Karmada"
        );
        assert!(eval("return kube.getPodDependencies({spec = {}})").is_err());
        assert!(eval("return kube.getPodDependencies({spec = {}}, {})").is_err());
    }
}
