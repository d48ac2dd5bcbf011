-- An interface's bus address is an OSDP address (issue 47): 0–126, 0x7F (127) being the broadcast address that no
-- board has. The form allowed 0–31 until now (contract/resources/hardware.ts); the table holds every row to OSDP's range.
alter table interfaces drop constraint if exists interfaces_bus_address_osdp;
alter table interfaces add constraint interfaces_bus_address_osdp check (bus_address between 0 and 126);
