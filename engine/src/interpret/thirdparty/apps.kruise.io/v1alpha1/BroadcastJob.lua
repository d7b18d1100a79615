-- OpenKruise BroadcastJob (apps.kruise.io/v1alpha1): a Job that runs a pod on every node.
local kube = require("kube")

-- The replica count Karmada divides is spec.parallelism, 1 when absent. The value is returned
-- as it is (parallelism is an int-or-string field; a string such as "50%" is not a number and
-- Karmada rejects it).
function GetReplicas(obj)
  local parallelism = obj.spec.parallelism
  if parallelism == nil then
    parallelism = 1
  end
  return parallelism, kube.accuratePodRequirements(obj.spec.template)
end

function ReviseReplica(obj, replica)
  obj.spec.parallelism = replica
  return obj
end

-- Pod template dependencies; nil when there are none (passed on as is).
function GetDependencies(desiredObj)
  return kube.getPodDependencies(desiredObj.spec.template, desiredObj.metadata.namespace)
end
