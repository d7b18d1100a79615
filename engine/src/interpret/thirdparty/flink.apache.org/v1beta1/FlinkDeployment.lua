-- Apache Flink FlinkDeployment (flink.apache.org/v1beta1): one JobManager deployment plus
-- TaskManager pods. Only the replica count is interpreted; there is no replica revision, so a
-- divided schedule does not rewrite the object.
local kube = require("kube")

-- obj[k1][k2]..., nil as soon as a step is nil
local function lookup(obj, ...)
  local value = obj
  for i = 1, select('#', ...) do
    if value == nil then
      return nil
    end
    value = value[(select(i, ...))]
  end
  return value
end

-- A number or numeric string as a number; absent, "" or not numeric gives the fallback.
local function asNumber(value, fallback)
  if value == nil or value == '' then
    return fallback
  end
  local number = tonumber(value)
  if number == nil then
    return fallback
  end
  return number
end

-- replicas = JobManager replicas (default 1) + TaskManager replicas. The TaskManager count is
-- spec.taskManager.replicas when given; otherwise ceil(job.parallelism / numberOfTaskSlots)
-- from spec.flinkConfiguration["taskmanager.numberOfTaskSlots"], or 1 when either is missing
-- or the slot count is 0.
--
-- Requirements (one shape for all pods): cpu = the larger of the two resource.cpu numbers,
-- memory = the larger of the two resource.memory values compared as Kubernetes quantities (a
-- tie keeps the TaskManager's), each taken as is when only one side sets it; the node claim is
-- spec.podTemplate.spec's nodeSelector and tolerations (no affinity); priorityClassName and the
-- object's namespace are added when not empty. The table is returned even when empty.
--
-- Quirk kept on purpose: Flink memory strings are handed to Kubernetes quantity parsing as
-- they are, so Flink's "2048m" (megabytes) reads as 2.048 bytes and "2g" is not a quantity.
function GetReplicas(observedObj)
  local requirements = { resourceRequest = {}, nodeClaim = {} }

  local jobManagers = asNumber(lookup(observedObj, "spec", "jobManager", "replicas"), 1)
  local taskManagers = asNumber(lookup(observedObj, "spec", "taskManager", "replicas"), nil)
  if taskManagers == nil then
    local parallelism = asNumber(lookup(observedObj, "spec", "job", "parallelism"), nil)
    local slots = asNumber(lookup(observedObj, "spec", "flinkConfiguration",
      "taskmanager.numberOfTaskSlots"), nil)
    if parallelism == nil or slots == nil or slots == 0 then
      taskManagers = 1
    else
      taskManagers = math.ceil(parallelism / slots)
    end
  end
  local replicas = jobManagers + taskManagers

  local taskCpu = lookup(observedObj, "spec", "taskManager", "resource", "cpu")
  local jobCpu = lookup(observedObj, "spec", "jobManager", "resource", "cpu")
  if taskCpu ~= nil and jobCpu ~= nil then
    requirements.resourceRequest.cpu = math.max(taskCpu, jobCpu)
  elseif taskCpu ~= nil then
    requirements.resourceRequest.cpu = taskCpu
  elseif jobCpu ~= nil then
    requirements.resourceRequest.cpu = jobCpu
  end

  local jobMemory = lookup(observedObj, "spec", "jobManager", "resource", "memory")
  local taskMemory = lookup(observedObj, "spec", "taskManager", "resource", "memory")
  if jobMemory ~= nil and taskMemory ~= nil then
    local jobBytes = kube.getResourceQuantity(jobMemory)
    local taskBytes = kube.getResourceQuantity(taskMemory)
    if jobBytes > taskBytes then
      requirements.resourceRequest.memory = jobMemory
    else
      requirements.resourceRequest.memory = taskMemory
    end
  elseif jobMemory ~= nil then
    requirements.resourceRequest.memory = jobMemory
  elseif taskMemory ~= nil then
    requirements.resourceRequest.memory = taskMemory
  end

  local podSpec = lookup(observedObj, "spec", "podTemplate", "spec")
  if podSpec ~= nil then
    requirements.nodeClaim.nodeSelector = podSpec.nodeSelector
    requirements.nodeClaim.tolerations = podSpec.tolerations
    local priorityClass = podSpec.priorityClassName
    if priorityClass ~= nil and priorityClass ~= '' then
      requirements.priorityClassName = priorityClass
    end
  end

  local namespace = lookup(observedObj, "metadata", "namespace")
  if namespace ~= nil and namespace ~= '' then
    requirements.namespace = namespace
  end

  return replicas, requirements
end
