//! Karmada's controllers, offline, as Karmada's `pkg/controllers/` holds them: what the control
//! plane does to a fleet besides placing it. Each reads the admitted fleet (or the clusters) and
//! writes templates, clusters or objects the later stages place and render; none of them
//! places, overrides or writes output.
//!
//! They may use what users write (`api`), objects, names and quantities, messages and lints,
//! and `bind` (a namespace's clusters); `fleet` (assembly), `render` and `run` use them.

// pkg/controllers/namespace: every Namespace to every cluster.
pub(crate) mod namespace_sync;
// pkg/controllers/mcs: the derived Service of a ServiceImport.
pub(crate) mod derived_services;
// pkg/controllers/taint: ClusterTaintPolicies on the inventory.
pub(crate) mod cluster_taints;
// pkg/controllers/federatedresourcequota: a quota's static assignments, one ResourceQuota a
// cluster.
pub(crate) mod federated_quota;
// pkg/webhook/resourcebinding and the quota enforcement controller: a quota's overall,
// weighed against the namespace's bindings behind FederatedQuotaEnforcement.
pub(crate) mod quota_enforcement;
// pkg/controllers/federatedhpa and cronfederatedhpa: the replicas the autoscalers give their
// targets at an end of their envelopes or a moment of their cron rules.
pub mod federated_hpa;
// The cron schedules of CronFederatedHPA rules, as the webhook and the controller read them.
pub(crate) mod cron_schedule;
