//! commandOverrider and argsOverrider: a named container's `command` or `args`, in the kinds
//! whose pod template Karmada knows, never in init containers (karmada
//! commandargsoverride.go). An unknown container name or another kind changes nothing.

use serde_json::Value;

use crate::api::karmada::{CommandArgsOperator, CommandArgsOverrider};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ContainerList {
    Command,
    Args,
}

/// Where a kind keeps its containers, for the overriders that work by kind.
pub(crate) fn containers_pointer(kind: &str) -> Option<&'static str> {
    match kind {
        "Pod" => Some("/spec/containers"),
        "ReplicaSet" | "Deployment" | "DaemonSet" | "StatefulSet" | "Job" => {
            Some("/spec/template/spec/containers")
        }
        _ => None,
    }
}

pub(crate) fn apply_command_args(
    object: &mut Value,
    kind: &str,
    target: ContainerList,
    overrider: &CommandArgsOverrider,
) -> Result<(), String> {
    let Some(pointer) = containers_pointer(kind) else {
        return Ok(());
    };
    let containers = match crate::json_pointer::pointer_mut(object, pointer) {
        None => return Ok(()),
        Some(Value::Array(containers)) => containers,
        Some(_) => return Err(format!("{pointer} is not a list")),
    };
    let field = match target {
        ContainerList::Command => "command",
        ContainerList::Args => "args",
    };
    for container in containers.iter_mut() {
        if container.get("name").and_then(Value::as_str) != Some(overrider.container_name.as_str())
        {
            continue;
        }
        let Some(container) = container.as_object_mut() else {
            continue;
        };
        let current: Vec<String> = match container.get(field) {
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                })
                .collect(),
            _ => Vec::new(),
        };
        let updated: Vec<String> = match overrider.operator {
            CommandArgsOperator::Add => current
                .into_iter()
                .chain(overrider.value.iter().cloned())
                .collect(),
            CommandArgsOperator::Remove => current
                .into_iter()
                .filter(|item| !overrider.value.contains(item))
                .collect(),
        };
        container.insert(field.to_string(), Value::from(updated));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overrider(operator: &str, value: Value) -> CommandArgsOverrider {
        serde_json::from_value(
            json!({"containerName": "app", "operator": operator, "value": value}),
        )
        .unwrap()
    }

    fn deployment(args: Value) -> Value {
        json!({"spec": {"template": {"spec": {
            "initContainers": [{"name": "app", "args": ["init"]}],
            "containers": [{"name": "app", "args": args}, {"name": "sidecar", "args": ["s"]}]}}}})
    }

    // karmada commandargsoverride_test.go: add appends, remove drops every occurrence.
    #[test]
    fn add_appends_and_remove_drops_every_occurrence() {
        let mut object = deployment(json!(["--a", "--b", "--a"]));
        apply_command_args(
            &mut object,
            "Deployment",
            ContainerList::Args,
            &overrider("add", json!(["--c", "--a"])),
        )
        .unwrap();
        assert_eq!(
            object
                .pointer("/spec/template/spec/containers/0/args")
                .unwrap(),
            &json!(["--a", "--b", "--a", "--c", "--a"])
        );
        apply_command_args(
            &mut object,
            "Deployment",
            ContainerList::Args,
            &overrider("remove", json!(["--a"])),
        )
        .unwrap();
        assert_eq!(
            object
                .pointer("/spec/template/spec/containers/0/args")
                .unwrap(),
            &json!(["--b", "--c"])
        );
        assert_eq!(
            object
                .pointer("/spec/template/spec/initContainers/0/args")
                .unwrap(),
            &json!(["init"])
        );
        assert_eq!(
            object
                .pointer("/spec/template/spec/containers/1/args")
                .unwrap(),
            &json!(["s"])
        );
    }

    #[test]
    fn a_missing_list_becomes_the_value_and_other_kinds_are_untouched() {
        let mut object = json!({"spec": {"containers": [{"name": "app"}]}});
        apply_command_args(
            &mut object,
            "Pod",
            ContainerList::Command,
            &overrider("add", json!(["sh"])),
        )
        .unwrap();
        assert_eq!(
            object.pointer("/spec/containers/0/command").unwrap(),
            &json!(["sh"])
        );
        let mut cron = json!({"spec": {"jobTemplate": {}}});
        apply_command_args(
            &mut cron,
            "CronJob",
            ContainerList::Command,
            &overrider("add", json!(["sh"])),
        )
        .unwrap();
        assert_eq!(cron, json!({"spec": {"jobTemplate": {}}}));
    }
}
