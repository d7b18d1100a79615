-- OpenKruise AdvancedCronJob (apps.kruise.io/v1alpha1): a CronJob whose template is either a
-- Job (spec.template.jobTemplate) or a BroadcastJob (spec.template.broadcastJobTemplate).
local kube = require("kube")

-- Dependencies of the pod template inside whichever job template is set; when both are set the
-- BroadcastJob one wins. With neither, an empty pod template is used, which has no
-- dependencies, so the result is nil (what kube.getPodDependencies returns for "none").
function GetDependencies(desiredObj)
  local templates = desiredObj.spec.template
  local podTemplate = {}
  if templates.jobTemplate ~= nil then
    podTemplate = templates.jobTemplate.spec.template
  end
  if templates.broadcastJobTemplate ~= nil then
    podTemplate = templates.broadcastJobTemplate.spec.template
  end
  return kube.getPodDependencies(podTemplate, desiredObj.metadata.namespace)
end
