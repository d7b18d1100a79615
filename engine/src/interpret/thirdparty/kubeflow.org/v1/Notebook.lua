-- Kubeflow Notebook (kubeflow.org/v1): one notebook server pod.
local kube = require("kube")

-- Always one replica, whatever the object says; requirements from spec.template. There is no
-- replica revision, so a divided schedule does not rewrite the object.
function GetReplicas(obj)
  return 1, kube.accuratePodRequirements(obj.spec.template)
end
