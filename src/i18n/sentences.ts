// The server's sentences with values in zh-CN, by key (contract/messages.ts: the server sends `{ message, code,
// values }`, the console looks the key up in the `server` namespace and fills the placeholders, src/i18n/index.ts
// saySentence). The keys are the ones server/ gives fill() (`fill('access.notInside', 'That person is not inside
// {zone}', { zone })`); src/i18n/i18n.test.ts reads every fill( of server/ and fails on a key without its zh-CN here or
// with other placeholders. A key the console does not know is shown as the server's English.
import { IAM_REFUSALS_ZH } from '../../contract/iam';

/** zh-CN templates of the server's sentences, by key; `{name}` placeholders as in the English. */
export const zhSentences: Record<string, string> = {
  // issue 49: an identity provider's sign-in refused (contract/iam.ts keeps the zh-CN for its refusal page)
  'iam.tooManyGroups': IAM_REFUSALS_ZH['The identity provider sent {count} groups; at most {max} are read, so the sign-in was refused'],
  'iam.groupNameTooLong': IAM_REFUSALS_ZH['The identity provider sent a group that is not a name of at most {max} characters'],
  // the edge's and the hub's words about a re-pair (server/edge)
  'osdp.notOnEdgeToMove': '{reader} 不在 Gatehouse Edge 控制器上：没有可移动的 OSDP 读卡器',
  'osdp.addressTaken': '此控制器的总线地址 {address} 已属于 {name}',
  'record.notFound': '找不到该{what}',
  'reportJob.ownerLacksPrivilege': '其所有者在本客户中已不再拥有权限 {code}：未生成任何内容',
  'privilege.needed': '需要权限 {code}',
  'handover.alreadyAcknowledged': '此交接已由 {name} 于 {at} 确认',
  'record.notOfThisKind': '您不能保存此类{what}',
  'record.onlyForYourself': '您只能为自己新增{what}',
  'record.actionNoLonger': '无法再{action}：此{what}当前为“{state}”。',
  'visitRequest.dayPassed': '此次来访的日期（{day}）已过：请拒绝该申请，被访人可以重新申请。',
  'record.notYoursToUse': '不是您可以使用的{what}',
  'record.someNotFound': '部分{what}未找到；未删除任何记录',
  'door.heldByThreatLevel': '此门因威胁等级“{level}”保持锁定：请先降低威胁等级',
  'osdp.notOnEdgeToPair': '{reader} 不在 Gatehouse Edge 控制器上：没有可配对的 OSDP 读卡器',
  'diagnostics.noControllerAt': '{ip} 上没有控制器',
  'backup.pgDumpOlder':
    '此服务器的数据库是 PostgreSQL {major}，而这里只有较旧的 pg_dump（{older}）：它无法备份该数据库。要在此进行备份和恢复，请安装 PostgreSQL {major} 的客户端工具（Debian 和 Ubuntu：apt install postgresql-client-{major}；其他系统：将同一主版本的 pg_dump、pg_restore 和 psql 放在 PATH 中），然后重新启动 Gatehouse。',
  'backup.pgToolsMissing':
    '此服务器的数据库是 PostgreSQL {major}，但未找到 pg_dump、pg_restore 和 psql（在 PATH 或 /usr/lib/postgresql/{major}/bin 中）。要在此进行备份和恢复，请安装 PostgreSQL {major} 的客户端工具（Debian 和 Ubuntu：apt install postgresql-client-{major}；其他系统：将同一主版本的 pg_dump、pg_restore 和 psql 放在 PATH 中），然后重新启动 Gatehouse。',
  'backup.notTaken': '无法进行备份：{problem}',
  'access.notInside': '此人不在 {zone} 内',
  'alarm.alreadyShelved': '此报警源已搁置至 {until}',
  'record.stillUsedByOne': '仍被 1 个{what}使用：请先修改或删除它',
  'record.stillUsedBy': '仍被 {n} 个{what}使用：请先修改或删除它们',
  'record.stillUsedByOthers': '仍被{what}使用：请先修改或删除它们',
  'division.stillUsedBy': '此部门中仍有{what}在使用：请先修改或删除它们',
  'record.changedMeanwhile': '您打开此{what}后，其他人已修改了它。请重新加载以查看其更改；您输入的值已保留。',
  'license.limitReached':
    '已达到许可证上限：{seat}席位 {seats} 个（已用 {used} 个，空闲 {free} 个）；再添加 {adding} 个将超出上限。请申请更多{seat}席位的许可证。',
  'record.alreadyInState': '{name} 已{state}',
  'visitor.onWatchlist': '{name} 与访客观察名单匹配：请先放行或拒绝',
  'visitor.refusedByWatchlist': '{name} 经观察名单核查后已被拒绝',
  'serviceAccount.noKeyToRevoke': '{name} 没有可吊销的密钥',
  'edge.noKeyToRevoke': '{name} 没有可吊销的 Edge 控制器密钥',
  'visitor.onlyFromState': '只有{state}的访客才能{done}',
  'batch.templateDivision': '模板“{name}”会将身份放入您无权添加身份的部门',
  'override.inForce': '{name} 正在生效：请先将其结束时间设为现在，其门将恢复各自的模式',
  // issue 48: the events the server makes (server/simulator: the doors, their commands and the swipes); `{event}` is the
  // event's label, said from ./events.ts
  'event.atDoor': '{door}：{event}',
  'event.atDoorBy': '{door}：{event}，操作人 {actor}',
  'event.atDoorByForced': '{door}：{event}，操作人 {actor}（强制）',
  'event.atDoorRelocked': '{door}：{event}（自动重新锁定）',
  'event.swipeCard': '{door}：{event}：{who}（卡 {card}）',
  'event.swipeQr': '{door}：{event}：{who}（二维码）',
  // a swipe refused by a threat level: its name beside the decision ("Access denied: threat level NC1 Red")
  'event.swipeCardAtLevel': '{door}：{event} {level}：{who}（卡 {card}）',
  'event.swipeQrAtLevel': '{door}：{event} {level}：{who}（二维码）',
  'event.antiPassbackLetThrough': '{door}：{event}：{who}（卡 {card}）— {decision}',
  // the simulator's devices, the controllers' firmware, the ingest's intrusions, the edge hub's links, logical blocks
  'event.label': '{event}',
  'event.atSource': '{source}：{event}',
  'event.intrusion': '{input}：{event}（报警区域 {zone}）',
  'event.floorFree': '{reader}：{floor} 层开放（{mask}）',
  'event.floorNeedsCard': '{reader}：{floor} 层需要刷卡',
  'event.outputPulsed': '{output}：{event}，由 {actor} 触发脉冲 {seconds} 秒',
  'event.outputHeldOn': '{output}：{event}，由 {actor} 触发（保持开启）',
  'event.pulseEnded': '{output}：{event}（脉冲结束）',
  'event.firmwareSent': '{controller}：{event}：{version}',
  'event.firmwareInstalled': '{controller}：{event}：现运行 {version}',
  'event.edgeConnected': '{controller}：{event}（Gatehouse Edge 已连接）',
  'event.edgeLinkLost': '{controller}：{event}（Gatehouse Edge 连接中断）',
  'event.edgeLinkLostSoftApb': '{controller}：{event}（Gatehouse Edge 连接中断）：在其重新连接之前，{doors} 的防反传为软模式',
  'event.edgeLinkLostSoftApbMore': '{controller}：{event}（Gatehouse Edge 连接中断）：在其重新连接之前，{doors} 及另外 {more} 个门的防反传为软模式',
  'event.logicAlarm': '{text}：{event}（{source}）',
  'event.watchlistAtDesk': '观察名单：在前台登记的 {name} 与 {reason} 匹配',
  'event.watchlistInRequest': '观察名单：来访申请中的 {name} 与 {reason} 匹配',
  // a Gatehouse Edge's own events (edge/): its journal, and anti-passback while offline
  'event.edgeEventsLost': '{event}：{count} 条，从 {from} 到 {to}',
  'event.edgeJournalShare': '{event}：{controller} 保存了 {count} 条未送达的事件（占 {limit} 条的 {share}%）',
  'event.antiPassbackSoftOffline': '{door}：{event}：{who}（卡 {card}）（离线：防反传为软模式）',
  // issue 48: the built-in alarm types' instructions (contract/monitor.ts DEFAULT_ALARM_TYPES); a person's are shown as written
  'alarmType.doorForcedOpen.instructions': '查看门口摄像头，派保安前往该门并将其关好。如发现入侵者，请报警。',
  'alarmType.readerTamper.instructions': '派保安检查读卡器是否损坏或被加装盗刷设备；检查完毕前保持该门锁定。',
  'alarmType.inputTamper.instructions': '检查传感器及其线路；记下在其附近出现的任何人。',
  'alarmType.interfaceOffline.instructions': '检查控制器的电源和网络；在其恢复前，各门按离线模式运行。',
  'alarmType.intrusion.instructions': '已布防报警区域的某个输入被触发：查看该区域的摄像头，派保安前往，如发现入侵者请报警。检查完毕后再撤防该区域。',
  'alarmType.doorHeldOpen.instructions': '请让扶着门的人把门关上；如门一直开着，请派保安前往。',
  'alarmType.antiPassbackViolation.instructions': '有人进入了其已在其中的区域（软防反传放行了他们）：查看摄像头是否有尾随，并与持卡人沟通。',
  'alarmType.logicalBlockAlarm.instructions': '此报警由逻辑块触发：阅读其消息，检查其所指的地点，处理完毕后处理该报警。',
  'alarmType.visitorWatchlistMatch.instructions': '登记或申请的访客与访客观察名单匹配：致电前台，核对该条目的照片和出生日期，并在前台放行或劝离访客之前留守。',
  'alarmType.edgeJournal80Full.instructions':
    '某台 Gatehouse Edge 控制器保存的未送达服务器的事件已占其日志的大部分：请在日志写满前恢复其网络连接（它从不丢弃未送达的事件，但其磁盘会被写满）。',
  'alarmType.edgeEventsLostWhileOffline.instructions':
    '某台 Gatehouse Edge 控制器离线时间超过其日志保留事件的时长（默认 30 天）并丢弃了最早的事件：消息中说明了数量和起止时间。这些刷卡和报警不在历史记录中；请查明该控制器为何长时间离线。',
  'alarmType.cardReaderOffline.instructions': '检查读卡器线缆和控制器端口；如有人被锁在门外，请使用机械钥匙。',
  // a door command refused for the door's state (contract/doors.ts DOOR_COMMAND_REFUSALS): the door's name, then the reason
  'door.alreadyLocked': '{door} 已锁定。',
  'door.alreadyUnlocked': '{door} 已解锁。',
  'door.unlockedUntilLocked': '{door} 处于解锁状态，直到有人锁定它：请改为锁定。',
  'door.forcedOpenLockReportsLocked': '{door} 被强行打开，但其门锁报告已锁定；仅在需要重新发送命令时再次锁定。',
  'door.forcedOpen': '{door} 被强行打开：请先派人将其关好。',
  'door.heldOpenAlready': '{door} 已处于常开状态。',
  'door.offline': '{door} 离线：恢复在线前任何命令都无法送达。',
  'door.tampered': '{door} 报告被破坏：检查前请保持锁定。',
};

/** Values that are words, in zh-CN (a sentence's `{what}`, `{state}`): the console says them in the language too. */
export const zhValueWords: Record<string, string> = {
  identities: '身份',
  doors: '门',
  readers: '读卡器',
  operators: '操作员',
  armed: '布防',
  disarmed: '撤防',
  expected: '预约',
  'on site': '在场',
  'signed in': '签到',
  'signed out': '签退',
  'operator grants': '操作员授权',
  'operator grant': '操作员授权',
  'operator-group grants': '操作员组授权',
  'operator-group grant': '操作员组授权',
  'role privileges': '角色权限',
  'role privilege ticked': '已勾选的角色权限',
  'role privileges ticked': '已勾选的角色权限',
  'operator-group members': '操作员组成员',
  'events in the history': '历史事件',
  alarms: '警报',
  credentials: '凭证',
  visitors: '访客',
  'access groups': '门禁组',
  'other records': '其他记录',
};
