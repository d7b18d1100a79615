-- OpenKruise CloneSet (apps.kruise.io/v1alpha1), read like a Deployment.
local kube = require("kube")

-- spec.replicas as it stands. No default is applied: an absent field gives nil, which Karmada
-- rejects ("result type nil is not number"), so the template must set it.
function GetReplicas(obj)
  local replicas = obj.spec.replicas
  return replicas, kube.accuratePodRequirements(obj.spec.template)
end

function ReviseReplica(obj, desiredReplica)
  obj.spec.replicas = desiredReplica
  return obj
end

-- The pod template's ConfigMaps, Secrets, ServiceAccount and PVCs. kube.getPodDependencies gives
-- nil (not an empty list) when there are none, and that nil is passed on unchanged.
function GetDependencies(desiredObj)
  return kube.getPodDependencies(desiredObj.spec.template, desiredObj.metadata.namespace)
end
