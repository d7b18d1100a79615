-- OpenKruise Advanced StatefulSet (apps.kruise.io/v1beta1), read like an apps/v1 StatefulSet.
local kube = require("kube")

-- spec.replicas as it stands (no default: absent gives nil, which Karmada rejects).
function GetReplicas(obj)
  local replicas = obj.spec.replicas
  return replicas, kube.accuratePodRequirements(obj.spec.template)
end

function ReviseReplica(obj, desiredReplica)
  obj.spec.replicas = desiredReplica
  return obj
end

-- Pod template dependencies only (volumeClaimTemplates are not dependencies); nil when none.
function GetDependencies(desiredObj)
  return kube.getPodDependencies(desiredObj.spec.template, desiredObj.metadata.namespace)
end
