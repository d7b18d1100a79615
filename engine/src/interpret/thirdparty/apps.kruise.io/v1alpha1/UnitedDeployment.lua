-- OpenKruise UnitedDeployment (apps.kruise.io/v1alpha1).
local kube = require("kube")

-- spec.replicas (no default: absent gives nil, rejected by Karmada). The requirements and the
-- dependencies are read from spec.template as if it were a pod template. In the real
-- UnitedDeployment API spec.template wraps a workload template (statefulSetTemplate,
-- advancedStatefulSetTemplate, cloneSetTemplate or deploymentTemplate), none of whose fields
-- belong to a pod template, so for such objects the requirements come out nil and the
-- dependencies nil as well. Kept that way on purpose: it is what Karmada computes.
function GetReplicas(obj)
  local replicas = obj.spec.replicas
  return replicas, kube.accuratePodRequirements(obj.spec.template)
end

function ReviseReplica(obj, desiredReplica)
  obj.spec.replicas = desiredReplica
  return obj
end

function GetDependencies(desiredObj)
  return kube.getPodDependencies(desiredObj.spec.template, desiredObj.metadata.namespace)
end
