//! The names of Karmada's autoscalers (`autoscaling.karmada.io/v1alpha1`, karmada
//! pkg/apis/autoscaling/v1alpha1): FederatedHPA and CronFederatedHPA. Their fields are read
//! where their controllers are modelled (`controllers::federated_hpa`).

/// The API group of both kinds.
pub const AUTOSCALING_GROUP: &str = "autoscaling.karmada.io";
/// The apiVersion a CronFederatedHPA names a FederatedHPA by.
pub const AUTOSCALING_API_VERSION: &str = "autoscaling.karmada.io/v1alpha1";
/// The kind Karmada's FederatedHPA controller reconciles.
pub const FEDERATED_HPA: &str = "FederatedHPA";
/// The kind Karmada's CronFederatedHPA controller reconciles.
pub const CRON_FEDERATED_HPA: &str = "CronFederatedHPA";
