-- OpenKruise Advanced DaemonSet (apps.kruise.io/v1alpha1). Not a divisible workload: only
-- dependencies are interpreted.
local kube = require("kube")

-- Pod template dependencies. Unlike its sibling kinds this one turns "none" (nil) into an
-- empty list.
function GetDependencies(desiredObj)
  local refs = kube.getPodDependencies(desiredObj.spec.template, desiredObj.metadata.namespace)
  if not refs then
    refs = {}
  end
  return refs
end
